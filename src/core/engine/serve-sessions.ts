/**
 * The front ends' thread listings (requests-sessions.ts): a named session's thread, "since you left" with each
 * thread's changed files, the listing from the thread files when the index is unavailable, and who writes a thread.
 */
import { AcpThreadsError } from "../errors";
import { namedSessionTag } from "../model/named-session";
import { matches } from "../index/thread-catalog";
import { listThreadsIndexed } from "../index/threads-index";
import { EditLedger } from "../ledger/edit-ledger";
import { filesChangedSince } from "../ledger/summary";
import type { ThreadMetadata } from "../model/metadata";
import { isInside } from "../platform/paths";
import { liveWriterAsync, type LockHolder } from "../store/file-lock";
import { threadIdOf, threadsOps } from "./serve-threads";
import type { ThreadWriter } from "./requests-sessions";
import type { Handlers } from "./serve-types";

/** A lock's holder as the requests give it: its process, machine, label and since when, never its token. */
export const writerOf = (h: LockHolder): ThreadWriter => ({ pid: h.pid, host: h.host, label: h.label, since: h.since });

export const sessionsOps: Handlers<"threads.named" | "threads.away" | "threads.scan" | "threads.writer"> = {
  "threads.named": async ({ store }, req) => {
    const tag = namedSessionTag(req.name);
    const threads = await listThreadsIndexed(store, {
      workspace: req.workspace,
      archived: "include", // a named session stays its name's even archived
      ...(req.agent ? { agent: req.agent } : {}),
    });
    return threads.find((m) => m.mode === "acp" && (m.tags ?? []).includes(tag)) ?? null;
  },
  "threads.away": async (ctx, req, report) => {
    checkArchived(req);
    // listed as threads.list lists them (its checks too), then each one's files from its edit ledger
    const threads = await threadsOps["threads.list"](ctx, { ...req, op: "threads.list" }, report);
    const ledger = new EditLedger({ home: ctx.store.home });
    try {
      const files: Record<string, string[]> = {};
      for (const t of threads) {
        try {
          files[t.id] = filesChangedSince(ledger.read(t.id).ops, t.cwd, req.since);
        } catch {
          files[t.id] = []; // no ledger, or one it cannot read
        }
      }
      return { threads, files };
    } finally {
      ledger.dispose();
    }
  },
  "threads.scan": ({ store }, req) => {
    const { op: _op, roots, ...query } = req;
    checkArchived(req);
    return store.list().filter((m) => within(m, roots) && matches(m, query));
  },
  "threads.writer": async ({ store }, req) => {
    // a whole id is not looked up first (no synchronous file call); a missing thread has no writer
    const h = await liveWriterAsync(store.pathFor(threadIdOf(store, req.threadId, false)));
    return h ? writerOf(h) : null;
  },
};

const ARCHIVED: readonly unknown[] = ["exclude", "only", "include"];

/** A request's `archived` (a string by its shape) is one of the three. */
function checkArchived(req: { op: string; archived?: string }): void {
  if (req.archived !== undefined && !ARCHIVED.includes(req.archived))
    throw new AcpThreadsError("usage", `engine request ${req.op}: 'archived' must be one of ${ARCHIVED.join(", ")}`);
}

// Platform-aware: drive letters and case on Windows (VS Code's fsPath has a lowercase drive, the CLI's cwd not).
const within = (m: ThreadMetadata, roots: string[]) =>
  roots.length === 0 || roots.some((r) => isInside(r, m.cwd) || (!!m.worktree && isInside(r, m.worktree.repo)));
