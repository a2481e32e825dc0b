/**
 * The engine request `ledger.restore` (requests-ledger.ts): `acp-threads restore` and `rewind`'s files. The plan is
 * made here from the thread's ledger (what each file goes back to is a version the ledger kept in its blob store);
 * a caller only names the thread, the turn or operation and, optionally, files of the plan. Refused, with nothing
 * written: a named file that is not a plain absolute path the plan has (`..`, never recorded), a file of the plan
 * outside the thread's folders (a ledger record pointing elsewhere, or a folder on the way swapped for a link to
 * elsewhere; the folders its sessions were allowed to write count, as recorded), and a thread another process writes. In the window (an engine given its `editor`, ports.ts,
 * and its live ledger) the same plan and check serve its Restore: planned against unsaved buffers (an unsaved one is
 * a file changed since), written through the editor; a thread its session or the thread host runs is its own.
 */
import { createHash } from "node:crypto";
import { normalize } from "node:path";
import { AcpThreadsError } from "../errors";
import { planRewindRestore } from "../handoff/rewind";
import type { EditLedger } from "../ledger/edit-ledger";
import { applyRestore, planRestore, type RestorePlan } from "../ledger/restore";
import { relPath } from "../ledger/summary";
import type { ThreadMetadata } from "../model/metadata";
import type { EditorFiles } from "../ports";
import { ignoredText, outsideFolders, recordedFolders, type RecordedFolders } from "../thread/folders";
import { liveWriter } from "../store/file-lock";
import type { ThreadStore } from "../store/thread-store";
import type { EngineRequest } from "./requests";
import { withLedger } from "./serve-ledger-open";
import type { Handlers } from "./serve-types";
import type { LedgerReplies } from "./requests-ledger";

type RestoreRequest = Extract<EngineRequest, { op: "ledger.restore" }>;

/**
 * The plan the request names, against what the user sees when an editor shows the files (an unsaved buffer counts
 * as an edit made since the thread's last change: a conflict).
 */
async function planOf(ledger: EditLedger, req: RestoreRequest, editor?: EditorFiles): Promise<RestorePlan | null> {
  const plan = await targetPlan(ledger, req, editor && ((p: string) => editor.currentText(p)));
  if (plan && editor)
    for (const i of plan.items) if (i.action !== "unchanged" && editor.isDirty(i.path)) i.conflict = true;
  return plan;
}

/** The plan the request names: to before a turn, an operation, the last restore (undone), or a rewind's turn. */
async function targetPlan(
  ledger: EditLedger,
  req: RestoreRequest,
  read?: (path: string) => Promise<string | null>,
): Promise<RestorePlan | null> {
  const given = [req.turn !== undefined, req.target !== undefined, req.undo === true, req.fromTurn !== undefined];
  if (given.filter(Boolean).length !== 1)
    throw new AcpThreadsError(
      "usage",
      "engine request ledger.restore: give exactly one of 'turn', 'target', 'undo' and 'fromTurn'",
    );
  if (req.fromTurn !== undefined) return planRewindRestore(ledger, req.threadId, req.fromTurn, read);
  if (!req.undo)
    return planRestore(ledger, req.threadId, req.target !== undefined ? { op: req.target } : { turn: req.turn! }, read);
  const last = (await ledger.readAsync(req.threadId)).ops.filter((o) => o.type === "restore").at(-1);
  if (!last) throw new AcpThreadsError("not_found", `thread ${req.threadId} has no restore to undo`);
  return planRestore(ledger, req.threadId, { op: last.op }, read);
}

/** Only the files the request names; each must be a plain absolute path (no `..`) the plan has. */
function onlyFiles(plan: RestorePlan, files: readonly string[]): RestorePlan {
  for (const f of files) {
    if (normalize(f) !== f)
      throw new AcpThreadsError("usage", `engine request ledger.restore: '${f}' is not a plain absolute path`);
    if (!plan.items.some((i) => i.path === f))
      throw new AcpThreadsError(
        "usage",
        `the thread's ledger has no change to ${f} to restore (from ${plan.target.turn !== undefined ? `turn ${plan.target.turn}` : plan.target.op} on)`,
      );
  }
  return { ...plan, items: plan.items.filter((i) => files.includes(i.path)) };
}

/**
 * The thread's folders: its cwd, its repository, its worktree, the checkouts its worktree was applied into, and
 * the folders its sessions were allowed to write (`folders`, recorded when a session opens: a multi-root window's
 * other folders, a hosted run's `roots`); `ignored`: recorded ones that are not taken (thread/folders.ts).
 */
export async function rootsOf(metadata: ThreadMetadata, ledger: EditLedger): Promise<RecordedFolders> {
  const applied = (await ledger.readAsync(metadata.threadId)).ops.flatMap((o) =>
    o.type === "apply" && o.summary?.cwd ? [o.summary.cwd] : [],
  );
  const wt = metadata.worktree;
  const recorded = recordedFolders(metadata);
  const roots = [metadata.cwd, metadata.repoRoot, wt?.path, wt?.repo, ...applied, ...recorded.folders];
  return { folders: [...new Set(roots.filter((r): r is string => !!r))], ignored: recorded.ignored };
}

/** Why a restore of the plan is refused (path_outside_workspace): it would write outside the thread's folders. */
async function outsideOf(
  plan: RestorePlan,
  { folders: roots, ignored }: RecordedFolders,
): Promise<AcpThreadsError | undefined> {
  const written = plan.items.filter((i) => i.action !== "unchanged" && !i.unavailable).map((i) => i.path);
  const outside = await outsideFolders(roots, written);
  if (outside.length)
    return new AcpThreadsError(
      "path_outside_workspace",
      `the restore would write outside the thread's folders (${roots.join(", ")}): ${outside.join(", ")}; nothing was restored` +
        (ignored.length ? ` (recorded folders not taken: ${ignoredText(ignored)})` : ""),
      { outside, ...(ignored.length ? { ignored } : {}) },
    );
  return undefined;
}

/**
 * The plan's digest: the same thread, target and items (each file's action, the versions it goes from and to, what is
 * there now, its conflict) give the same key; anything else, another. A preview's key names the plan a person saw.
 */
const planKey = (plan: RestorePlan): string =>
  createHash("sha256").update(JSON.stringify(plan)).digest("hex").slice(0, 32);

/** A restore `expect`ing another plan than the one made now: nothing is written. */
const stale = (): AcpThreadsError =>
  new AcpThreadsError(
    "usage",
    "the files or the thread's ledger changed since the restore's preview (or the preview is not this restore's): nothing was restored; look at the restore again",
    { stale: true },
  );

/** An error as a reply carries it (plain data). */
const refusal = (err: AcpThreadsError): NonNullable<LedgerReplies["ledger.restore"]["refused"]> => ({
  code: err.code,
  message: err.message,
  ...(err.details ? { details: err.details } : {}),
});

/** The process that writes the thread, when it is not this store's own handle (the window's session). */
function heldBy(store: ThreadStore, threadId: string): number | undefined {
  if (store.handleOf(threadId)?.closed === false) return undefined;
  return liveWriter(store.pathFor(threadId))?.pid;
}

export const restoreOps: Handlers<"ledger.restore"> = {
  "ledger.restore": async (ctx, req) => {
    const { store, editor } = ctx;
    // the thread and its ledger read off the host's thread (the window's Restore, #35)
    const { metadata } = await store.readExisting(req.threadId);
    return withLedger(ctx, async (ledger) => {
      const made = await planOf(ledger, req, editor);
      if (!made) return { plan: null };
      const plan = req.files ? onlyFiles(made, req.files) : made;
      const planned = { plan, rels: plan.items.map((i) => relPath(metadata.cwd, i.path)), planKey: planKey(plan) };
      const outside = await outsideOf(plan, await rootsOf(metadata, ledger));
      // a preview writes nothing: it names what a restore would refuse to write
      if (req.dryRun) return outside ? { ...planned, outside: refusal(outside) } : planned;
      if (outside) throw outside;
      const held = editor ? undefined : heldBy(store, req.threadId);
      if (held !== undefined) return { ...planned, heldBy: held };
      if (req.expect !== undefined && req.expect !== planned.planKey) return { ...planned, refused: refusal(stale()) };
      try {
        const op = await applyRestore(ledger, plan, {
          cwd: metadata.cwd,
          force: req.force === true,
          ...(editor ? { writer: editor } : {}),
        });
        return { ...planned, result: { op: op.op, files: op.files.length, notes: op.summary?.notes ?? [] } };
      } catch (err) {
        if (!(err instanceof AcpThreadsError)) throw err;
        return { ...planned, refused: refusal(err) };
      }
    });
  },
};
