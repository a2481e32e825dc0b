/** `changes --format patch`: a unified diff per operation, each file's version before and after it. */
import type { BlobStore } from "./blob-store";
import { describeState, type FileState } from "./content";
import { unifiedDiff } from "./hunks";
import type { OpSummary } from "./summary";

export function patchOf(blobs: BlobStore, ops: readonly OpSummary[]): string {
  const text = (s: FileState | null) => (s ? (blobs.getText(s.id!) ?? "") : null);
  const missing = (s: FileState | null) => !!s && (!s.stored || !blobs.has(s.id!));
  let out = "";
  for (const o of ops) {
    const who = o.type === "turn" ? `turn ${o.turn}${o.agent ? ` (${o.agent.name})` : ""}` : `${o.type} ${o.op}`;
    out += `# ${who}: ${o.files.length} file(s)\n`;
    for (const f of o.files) {
      const lost = [f.before, f.after].find(missing);
      const note = lost ? `content not kept: ${describeState(lost)}` : undefined;
      out += unifiedDiff(f.rel, text(f.before), text(f.after), note);
    }
  }
  return out;
}
