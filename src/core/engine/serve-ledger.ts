/**
 * The engine requests of a thread's edit ledger (requests-ledger.ts): the ledger is opened per request over the data
 * home (and disposed), as the CLI did per command. A restore is planned here from the ledger's own records; a file a
 * request names must be one the plan has, and no file outside the thread's folders is written.
 */
import { buildHandoffBrief } from "../handoff/brief";
import { restoredTurns } from "../ledger/restored";
import { patchOf } from "../ledger/patch";
import { summarize } from "../ledger/summary";
import type { ChangesOp } from "./requests-ledger";
import { withLedger } from "./serve-ledger-open";
import { restoreOps } from "./serve-ledger-restore";
import type { Handlers } from "./serve-types";

export const ledgerOps: Handlers<"ledger.changes" | "handoff.brief" | "ledger.restore"> = {
  "ledger.changes": (ctx, req) => {
    const { cwd } = ctx.store.readMetadata(req.threadId);
    return withLedger(ctx, (ledger) => {
      const view = ledger.read(req.threadId);
      const restored = restoredTurns(view);
      const ops: ChangesOp[] = summarize(view, cwd)
        .map((o) => (restored.has(o.op) ? { ...o, restoredBy: restored.get(o.op) } : o))
        .filter((o) => req.turn === undefined || (o.type === "turn" && o.turn === req.turn));
      const warnings = view.warnings.map((w) => w.message);
      return {
        threadId: req.threadId,
        cwd,
        warnings,
        ops,
        ...(req.patch ? { patch: patchOf(ledger.blobs, ops) } : {}),
      };
    });
  },
  "handoff.brief": (ctx, req) => {
    const { metadata, records } = ctx.store.read(req.threadId);
    return withLedger(ctx, (ledger) => buildHandoffBrief(metadata, records, ledger.read(req.threadId)));
  },
  ...restoreOps,
};
