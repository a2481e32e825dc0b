/**
 * Writes a thread as Markdown (core/thread/export-markdown.ts) to a file, with the images it links to copied
 * into `<name>.assets/` beside it; or returns the Markdown alone (stdout). Everything written is redacted like a
 * snapshot (keys, tokens) and written atomically with mode 0600. A stored image that is missing is reported and
 * skipped, never a failure: the rest of the export is still written.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { redactSecrets } from "../redact";
import { writeFileAtomic } from "../store/atomic-write";
import { assetsDir } from "../store/paths";
import type { ThreadRead } from "../store/thread-store";
import { threadToMarkdown } from "../thread/export-markdown";

export interface MarkdownFileResult {
  markdown: string;
  /** The file written (absent: nothing was written). */
  path?: string;
  /** Images copied next to it. */
  assets: string[];
  warnings: string[];
}

/** `notes.md` → `notes.assets`: the folder the images go to, relative to the Markdown file. */
export function assetsFolderFor(outFile: string): string {
  const name = basename(outFile);
  return `${extname(name) ? name.slice(0, -extname(name).length) : name}.assets`;
}

/** The default file name for a thread's export: its title made safe for file names, then the id's start. */
export function markdownFileName(thread: Pick<ThreadRead, "metadata">): string {
  const m = thread.metadata;
  const slug = (m.title ?? "thread")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "thread"}-${m.threadId.slice(0, 8)}.md`;
}

/**
 * The thread as Markdown; with `outFile`, written there with its images beside it. `threadsDir` is where the
 * thread's own `<id>.assets/` folder is.
 */
export function exportMarkdown(thread: ThreadRead, threadsDir: string, outFile?: string): MarkdownFileResult {
  const link = outFile ? assetsFolderFor(outFile) : undefined;
  const { markdown, assets } = threadToMarkdown(thread.metadata, thread.records, {
    assetsDir: assetsDir(threadsDir, thread.metadata.threadId),
    assetsLink: link,
  });
  const text = redactSecrets(markdown);
  if (!outFile || !link) return { markdown: text, assets: [], warnings: [] };
  const warnings: string[] = [];
  const copied: string[] = [];
  for (const a of assets) {
    let bytes = a.data;
    if (!bytes && a.from) {
      if (!existsSync(a.from)) {
        warnings.push(`image ${a.name} is not in ${dirname(a.from)} any more; its link is left dangling`);
        continue;
      }
      bytes = readFileSync(a.from);
    }
    if (!bytes) continue;
    const to = join(dirname(outFile), link, a.name);
    writeFileAtomic(to, bytes);
    copied.push(to);
  }
  writeFileAtomic(outFile, text);
  return { markdown: text, path: outFile, assets: copied, warnings };
}
