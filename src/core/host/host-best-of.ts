/**
 * The Best of N the thread host owns (#35): `run --worktrees --detach` hands its record over (`best_of`) once every
 * candidate runs here, and the host finishes it with nobody watching, as `worktrees compare` or a window would
 * (best-of-finish.ts, core's resumeBestOf): each candidate's run it holds is followed to its end, the check runs in
 * each worktree (its process group killed when the host stops), every fact goes into the record, and the record is
 * let go once ranked (`finishedAt`: a client then ranks it from the record, running nothing). While it runs, the
 * record's owner is the host (`role: "host"`): clients follow the record and never claim it; the host counts it as
 * work (no idle exit). The host stopping lets it go unfinished; the host dying leaves an owner that is gone: either
 * way a client picks it up as before.
 *
 * Trust: the host runs only the check command the user typed on the asking client's command line (it must be the
 * record's), and only for a record of a repository of the client's folders whose worktrees are ones the host would
 * have made itself (run-roots.ts).
 */
import { AcpThreadsError, errorMessage } from "../errors";
import type { Logger } from "../log";
import { homeLayout } from "../store/paths";
import { ThreadStore } from "../store/thread-store";
import { finishRecord, followedEnd } from "../worktree/best-of";

import { ownedHere, ownerGone, ownerHere, sameOwner, type BestOfRecord } from "../worktree/best-of-record";
import { BestOfRecords } from "../worktree/best-of-records";
import { offeredGuard } from "./editor-serve";
import type { HostEvent, HostReply } from "./protocol";
import type { BestOfRequest } from "./protocol-best-of";
import type { ServeOffer } from "./protocol-serve";
import { assertWorktreeOffered, repositoryOfFolders } from "./run-roots";
import { timeoutProblem } from "./timer-fields";

type Ended = Extract<HostEvent, { kind: "ended" }>;

export class HostBestOfs {
  readonly #running = new Map<string, Promise<void>>();
  readonly #stop = new AbortController();
  /** Thread id → what waits for its run's end. */
  readonly #waiting = new Map<string, Set<(e: Ended) => void>>();

  /**
   * `holds`: whether the host still holds a run of the thread; `changed`: a Best of N began or ended here (the
   * host's count of its work moved).
   */
  constructor(
    private readonly opts: { home: string; logger: Logger },
    private readonly holds: (threadId: string) => boolean,
    private readonly changed: () => void,
  ) {}

  /** How many Best of N the host finishes now. */
  get running(): number {
    return this.#running.size;
  }

  /** A client hands its Best of N over (its folders `offer`ed in its hello): `ok` once the host owns the record. */
  async request(req: BestOfRequest, offer: ServeOffer | undefined): Promise<HostReply> {
    if (this.#stop.signal.aborted) throw new AcpThreadsError("usage", "the thread host is stopping");
    const timeout = timeoutProblem(req.checkTimeoutMs);
    if (timeout) throw new AcpThreadsError("usage", `best_of: the check's ${timeout}`);
    if (typeof req.bestOf !== "string" || !isOwner(req.from))
      throw new AcpThreadsError("usage", "best_of: a record id and its owner are needed");
    const records = new BestOfRecords(homeLayout(this.opts.home).bestOfFile);
    const found = await records.get(req.bestOf);
    if (!found) throw new AcpThreadsError("not_found", `no Best of N ${req.bestOf} is recorded`);
    await assertOffered(found, req, offer);
    let claimed: BestOfRecord | undefined;
    await records.update(found.id, (r) => {
      const free = ownerGone(r.owner) || ownedHere(r.owner) || sameOwner(r.owner, req.from);
      if (!free || r.check !== found.check || this.#running.has(r.id)) return false;
      r.owner = ownerHere("host");
      claimed = structuredClone(r);
    });
    if (!claimed)
      throw new AcpThreadsError("locked", `Best of N ${found.id} is followed by another process: not handed over`);
    const id = claimed.id;
    this.#running.set(
      id,
      this.#finish(records, claimed, req.checkTimeoutMs).finally(() => {
        this.#running.delete(id);
        this.changed();
      }),
    );
    this.changed();
    return { t: "ok", id: req.id };
  }

  /** An event the host announces: a run's end reaches what waits for it. */
  heard(e: HostEvent): void {
    if (e.kind !== "ended") return;
    const waiting = this.#waiting.get(e.threadId);
    this.#waiting.delete(e.threadId);
    for (const w of waiting ?? []) w(e);
  }

  /** The host stops: every check is killed, each record let go unfinished (a client picks it up). */
  async shutdown(): Promise<void> {
    this.#stop.abort();
    await Promise.allSettled(this.#running.values());
  }

  async #finish(records: BestOfRecords, record: BestOfRecord, checkTimeoutMs: number | undefined): Promise<void> {
    const store = new ThreadStore(this.opts.home);
    const signal = this.#stop.signal;
    let finished = false;
    try {
      await finishRecord({
        records,
        record,
        signal,
        ...(checkTimeoutMs !== undefined ? { checkTimeoutMs } : {}),
        readThread: (threadId) => store.read(threadId).records,
        follow: async (c, stop) => {
          const ended = await this.#ended(c.threadId, stop);
          return followedEnd(c.threadId, store.read(c.threadId).records, ended);
        },
      });
      finished = !signal.aborted;
    } catch (err) {
      this.opts.logger.error(`finishing Best of N ${record.id} failed: ${errorMessage(err)}`);
    } finally {
      store.closeAll();
    }
    // let go: finished (ranked from the record by whoever looks), or not (picked up and finished by a client)
    await records
      .update(record.id, (r) => {
        if (!ownedHere(r.owner)) return false;
        r.owner = null;
        if (finished) r.finishedAt = new Date().toISOString();
      })
      .catch((err: unknown) =>
        this.opts.logger.error(`letting Best of N ${record.id} go failed: ${errorMessage(err)}`),
      );
  }

  /** Resolves with the `ended` event of the thread's run here (undefined: the host holds none); rejects when stopped. */
  #ended(threadId: string, signal: AbortSignal): Promise<Ended | undefined> {
    if (!this.holds(threadId)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(threadId) ?? new Set();
      this.#waiting.set(threadId, waiting);
      const stop = () => {
        waiting.delete(done);
        reject(new AcpThreadsError("interrupted", "the thread host stopped"));
      };
      const done = (e: Ended) => {
        signal.removeEventListener("abort", stop);
        resolve(e);
      };
      waiting.add(done);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    });
  }
}

const isOwner = (v: unknown): v is BestOfRequest["from"] => {
  const o = v as Partial<BestOfRequest["from"]> | null;
  return typeof o === "object" && o !== null && [o.pid, o.boot].every(Number.isFinite) && typeof o.host === "string";
};

/** Refuses a record the asking client could not have made, or a check command that is not the record's. */
async function assertOffered(r: BestOfRecord, req: BestOfRequest, offer: ServeOffer | undefined): Promise<void> {
  if ((req.check ?? undefined) !== (r.check ?? undefined))
    throw new AcpThreadsError(
      "usage",
      `Best of N ${r.id}'s check is not the one asked for: refused (the host runs only the check the user gave)`,
    );
  const guard = offeredGuard(offer);
  if (!guard || !(await repositoryOfFolders(r.repo, guard.roots)))
    throw new AcpThreadsError(
      "path_outside_workspace",
      `Best of N ${r.id}'s repository ${r.repo} is not one of this client's folders: refused`,
    );
  for (const c of r.candidates)
    if (c.threadId && c.worktree && c.cwd)
      await assertWorktreeOffered({ preparedWorktree: { ref: c.worktree, cwd: c.cwd } }, offer);
}
