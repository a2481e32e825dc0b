/** Whether something is at `path` (a file, a folder, a socket; a link followed to it), without throwing. */
import { access } from "node:fs/promises";

export const pathExists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );
