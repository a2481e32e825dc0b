/**
 * Where "Export snapshot" and "Export as Markdown" start their save dialog (#37): the engine's choice, which the
 * CLI's `threads export` shares (the user's Downloads folder, else their home folder; never the repository).
 */
import type { Engine } from "../core/engine/requests";

export async function defaultExportDir(engine: Engine): Promise<string> {
  return (await engine.call({ op: "export.folder" })).dir;
}
