/**
 * `acp-threads run --file PATH[:L1-L2] … --image PATH …`: the context of the first prompt, checked before any
 * agent starts (a missing file or a non-image is a usage error, exit 2). Files and ranges become the same context
 * items the editor's `@` mentions make; the one block builder (core/prompt) turns them into ACP blocks.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { AcpThreadsError } from "../core/errors";
import type { ContextItem } from "../core/model/context";
import { readImageFile } from "../core/prompt/images";
import { folderRef, parseFileArg } from "../core/prompt/refs";

export function contextFromFlags(files: readonly string[], images: readonly string[], cwd: string): ContextItem[] {
  const items: ContextItem[] = files.map((arg) => {
    const item = parseFileArg(arg, cwd);
    const path = item.path!;
    if (!existsSync(path)) throw new AcpThreadsError("usage", `--file ${arg}: no such file or folder (${path})`);
    if (statSync(path).isDirectory()) {
      if (item.range) throw new AcpThreadsError("usage", `--file ${arg}: a folder has no lines`);
      return folderRef(path);
    }
    return item;
  });
  for (const arg of images) {
    try {
      items.push(readImageFile(resolve(cwd, arg)));
    } catch (err) {
      throw new AcpThreadsError("usage", `--image ${arg}: ${(err as Error).message}`);
    }
  }
  return items;
}
