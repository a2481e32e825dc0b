/**
 * Which turns a restore took back. Restoring to before operation i puts the workspace where it was before i:
 * every turn from i on is then restored (by that restore), and the turns before i are as they were at i. Undoing
 * a restore is a restore to before it, so the turns it took back are in effect again. Derived from the ledger's
 * operation order at every read, like the rest of the view.
 */
import type { LedgerView } from "./ledger-view";

/** Turn op id → the id of the restore that took it back, for each turn not in effect now. */
export function restoredTurns(view: Pick<LedgerView, "ops">): Map<string, string> {
  const at: Map<string, string>[] = [];
  let now = new Map<string, string>();
  view.ops.forEach((o, k) => {
    at[k] = now;
    if (o.type !== "restore" || !o.summary?.target) return;
    const i = view.ops.findIndex((x) => x.op === o.summary!.target!.op);
    if (i < 0 || i >= k) return;
    now = new Map(at[i]);
    for (const t of view.ops.slice(i, k)) if (t.type === "turn" && t.files.length) now.set(t.op, o.op);
  });
  return now;
}
