/**
 * Opening a thread's session, the one way every front end does it (#35 item 7: the CLI's `run`, the thread host's
 * detached runs through it, and the editor's live sessions had each written it, and drifted): a new thread in its
 * folder or a worktree made for it, or a stored thread reopened (waiting while another process holds it); the
 * worktree named in the new thread; the steering inbox served, so `acp-threads run --thread ID --steer TEXT` reaches
 * whichever process holds the thread; the watchdog attached; and a worktree made for a session that never opened
 * removed again. What the front ends differ in comes in as callbacks (`prepare`: the sandbox, a review file;
 * `whenFree`: follow the other writer; the runtime factory: asker, terminals, files) and typed progress events
 * (`OpenProgress`) they print or show, as best-of.ts does for its candidates.
 */
import type { AgentRuntime } from "../acp/runtime";
import { errorMessage } from "../errors";
import type { Disposable } from "../lifecycle";
import type { WorktreeRef } from "../model/records";
import { ThreadSession } from "../session";
import { superviseSession, type SuperviseOptions } from "../watchdog/attach";
import type { Supervisor } from "../watchdog/supervisor";
import { createWorktree, isNotARepository } from "../worktree/create";
import { discardWorktree } from "../worktree/discard";
import { serveSteerInbox } from "./steer-inbox";
import type { ThreadSessionOptions } from "./types";

/** What opening did that the person should know of. */
export type OpenProgress =
  | { type: "worktree_created"; ref: WorktreeRef; cwd: string; warnings: string[] }
  /** The folder is in no repository: the session works in the folder itself. */
  | { type: "worktree_skipped"; cwd: string; reason: string }
  /** The worktree made for a session that never opened is gone again (`warnings`: what git said). */
  | { type: "worktree_removed"; ref: WorktreeRef; warnings: string[] };

export type OpenProgressListener = (p: OpenProgress) => void;

/** Where a new thread works: a folder, and the worktree it is in when one was made for it. */
export interface ThreadPlace {
  cwd: string;
  worktree?: WorktreeRef;
}

/** A new git worktree of `cwd`'s repository for a new thread, or `cwd` itself outside git (told as progress). */
export async function worktreeFor(cwd: string, onProgress?: OpenProgressListener): Promise<ThreadPlace> {
  try {
    const made = await createWorktree(cwd);
    onProgress?.({ type: "worktree_created", ref: made.ref, cwd: made.cwd, warnings: made.warnings });
    return { cwd: made.cwd, worktree: made.ref };
  } catch (err) {
    if (!isNotARepository(err)) throw err;
    onProgress?.({ type: "worktree_skipped", cwd, reason: errorMessage(err) });
    return { cwd };
  }
}

interface OpenCommon {
  /** Runs before the agent starts (the sandbox, a review file): a throw is a session that never opened. */
  prepare?: () => Promise<void>;
  /** The watchdog and retry ladder; none: the session is not watched. */
  watchdog?: SuperviseOptions;
  onProgress?: OpenProgressListener;
}

/** A new thread. */
export interface StartThreadOptions<R extends AgentRuntime> extends OpenCommon {
  resume?: undefined;
  session: ThreadSessionOptions<R>;
  /** The worktree the new thread works in; `made` for it: removed again when its session never opens. */
  worktree?: { ref: WorktreeRef; made: boolean };
  /** Tags the new thread starts with (a named session's). */
  tags?: readonly string[];
}

/** A stored thread reopened; its agent and folder are the recorded ones unless given. */
export interface ResumeThreadOptions<R extends AgentRuntime> extends OpenCommon {
  resume: string;
  session: Omit<ThreadSessionOptions<R>, "agent" | "cwd"> & Partial<ThreadSessionOptions<R>>;
  /**
   * Before the resume, and again when another process took the thread meanwhile: resolves once no other process
   * holds it, false to give up (`openThread` then resolves undefined). None: a held thread fails as `locked`.
   */
  whenFree?: (threadId: string) => Promise<boolean>;
}

export type OpenThreadOptions<R extends AgentRuntime> = StartThreadOptions<R> | ResumeThreadOptions<R>;

/** An open thread session with what serves it. */
export interface OpenedThread<R extends AgentRuntime = AgentRuntime> extends Disposable {
  readonly session: ThreadSession<R>;
  readonly supervisor: Supervisor | undefined;
  /** Stops serving the session (steering inbox, watchdog) and closes it. */
  close(status?: "idle" | "done" | "failed"): Promise<void>;
}

const isLocked = (err: unknown) => (err as { code?: unknown } | undefined)?.code === "locked";

async function startOrResume<R extends AgentRuntime>(o: OpenThreadOptions<R>): Promise<ThreadSession<R> | undefined> {
  if (o.resume === undefined) {
    const session = await ThreadSession.start(o.session);
    const patch = {
      ...(o.tags?.length ? { tags: [...session.metadata.tags, ...o.tags] } : {}),
      ...(o.worktree ? { worktree: o.worktree.ref } : {}),
    };
    if (Object.keys(patch).length) session.live.patch(patch);
    return session;
  }
  // another process may take the thread between our look and our open: wait for it again, then retry
  for (;;) {
    if (o.whenFree && !(await o.whenFree(o.resume))) return undefined;
    try {
      return await ThreadSession.resume(o.session, o.resume);
    } catch (err) {
      if (!o.whenFree || !isLocked(err)) throw err;
    }
  }
}

/** Opens the thread's session (see above); undefined when `whenFree` gave up waiting for the thread. */
export async function openThread<R extends AgentRuntime>(
  o: OpenThreadOptions<R>,
): Promise<OpenedThread<R> | undefined> {
  let session: ThreadSession<R> | undefined;
  try {
    await o.prepare?.();
    session = await startOrResume(o);
  } finally {
    if (!session && o.resume === undefined && o.worktree?.made) await removeUnopened(o.worktree.ref, o.onProgress);
  }
  if (!session) return undefined;
  const s = session;
  const inbox = serveSteerInbox(o.session.store, s.threadId, (text) => s.steer(text));
  const supervisor = o.watchdog ? superviseSession(s, o.watchdog) : undefined;
  const stop = () => {
    supervisor?.dispose();
    inbox.dispose();
  };
  return {
    session: s,
    supervisor,
    dispose: stop,
    close: async (status = "idle") => {
      stop();
      await s.close(status);
    },
  };
}

/** A worktree made for a session that never opened holds nothing: it goes (a thread that exists keeps its own). */
async function removeUnopened(ref: WorktreeRef, onProgress: OpenProgressListener | undefined): Promise<void> {
  const warnings = await discardWorktree(ref).then(
    (r) => r.warnings,
    (err: unknown) => [`could not remove it: ${errorMessage(err)}`],
  );
  onProgress?.({ type: "worktree_removed", ref, warnings });
}
