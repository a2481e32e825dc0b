/**
 * The edit ledger an engine request reads or restores through: the one this process already writes when it has
 * one (the window's live ledger: one writer per ledger in a process), else one opened over the data home and
 * disposed after.
 */
import { EditLedger } from "../ledger/edit-ledger";
import type { EngineContext } from "./serve-types";

export async function withLedger<T>(
  ctx: Pick<EngineContext, "store" | "ledger">,
  fn: (ledger: EditLedger) => T | Promise<T>,
): Promise<T> {
  if (ctx.ledger) return fn(ctx.ledger());
  const ledger = new EditLedger({ home: ctx.store.home, walkWorker: false }); // no walk: it reads and restores only
  try {
    return await fn(ledger);
  } finally {
    ledger.dispose();
  }
}
