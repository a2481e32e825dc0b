/**
 * Whether something is at `path` (a link followed to it), asked off the extension host's thread (#35: the window
 * never waits on disk); false on any error. The window's own: the engine's file helpers stay behind its boundary.
 */
import { stat } from "node:fs/promises";

export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
