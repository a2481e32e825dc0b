/**
 * `threads export ID --format md [--out FILE]`: the thread as Markdown on stdout, or written to FILE with its
 * images copied into `<FILE without .md>.assets/` beside it (core/snapshot/markdown-file.ts).
 */
import { resolve } from "node:path";
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import { EXIT } from "../io";
import { shortId, type SubContext } from "./common";

export async function exportMarkdownCmd(ctx: SubContext): Promise<number> {
  const { io, store, flags } = ctx;
  if (flags.jsonl || flags.dir !== undefined)
    throw new AcpThreadsError("usage", "--format md writes one Markdown file: use --out FILE (not --jsonl or --dir)");
  const engine = localEngine({ store });
  const { threadId: id } = await engine.call({ op: "threads.resolve", threadId: ctx.args[0]! });
  const out = typeof flags.out === "string" ? resolve(io.cwd, flags.out) : undefined;
  const res = await engine.call({
    op: "markdown.export",
    threadId: id,
    ...(out ? { outFile: out } : {}),
  });
  for (const w of res.warnings) io.stderr.write(`warning: ${w}\n`);
  if (!res.path) io.stdout.write(res.markdown);
  else {
    const images = res.assets.length ? ` and ${res.assets.length} image${res.assets.length === 1 ? "" : "s"}` : "";
    io.stdout.write(`exported ${shortId(id)} as Markdown${images} to ${res.path}\n`);
  }
  return EXIT.ok;
}
