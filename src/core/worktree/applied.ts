/**
 * What a thread's earlier applies of its worktree took in, per file (#25 leftovers): the worktree's version each
 * apply (or merge) wrote into the workspace is recorded on its ledger change (`source`). A later apply compares
 * the worktree against that version, not the worktree's base commit, so a file merged or applied before is not
 * offered again as a conflict: when the worktree's copy is still the one taken in, there is nothing new to
 * apply; when the agent changed it since, the merge base is the version taken in.
 *
 * The latest ledger change of a file decides: an apply that wrote it stands; a restore (or undo) that touched
 * it since took that apply back — the earlier apply whose written version the restore put back stands then,
 * and when there is none the worktree's base commit is the reference again. Apply changes recorded before
 * `source` existed count as none.
 */
import { relative, sep } from "node:path";
import type { FileState } from "../ledger/content";
import type { LedgerView } from "../ledger/ledger-view";
import type { WorktreeRef } from "../model/records";

export interface LastApplied {
  /** The apply operation that wrote the file last. */
  op: string;
  /** The worktree's version it took in (null: the worktree had deleted the file). */
  source: FileState | null;
}

/** Repository-relative path (`/`-separated) → the last apply of `ref` that still stands for that file. */
export function lastApplied(view: LedgerView, ref: WorktreeRef): Map<string, LastApplied> {
  const latest = new Map<string, LastApplied | undefined>();
  /** Every apply of the file so far with the version it wrote, for restores that bring one back. */
  const writes = new Map<string, { after: string | null; last: LastApplied }[]>();
  const prefix = ref.repo.endsWith(sep) ? ref.repo : ref.repo + sep;
  const idOf = (s: FileState | null) => (s ? (s.id ?? "?") : null);
  for (const o of view.ops)
    for (const f of o.files) {
      if (!f.path.startsWith(prefix)) continue;
      const rel = relative(ref.repo, f.path).split(sep).join("/");
      const list = writes.get(rel) ?? [];
      writes.set(rel, list);
      if (o.type === "apply" && f.source !== undefined && (o.summary?.cwd ?? ref.repo) === ref.repo) {
        const last = { op: o.op, source: f.source };
        list.push({ after: idOf(f.after), last });
        latest.set(rel, last);
      } else {
        // a restore (or undo, or anything else) that put back what an earlier apply wrote: that apply stands
        const back = idOf(f.after);
        latest.set(rel, back === "?" ? undefined : list.findLast((w) => w.after === back)?.last);
      }
    }
  const out = new Map<string, LastApplied>();
  for (const [rel, last] of latest) if (last && (last.source === null || last.source.id)) out.set(rel, last);
  return out;
}
