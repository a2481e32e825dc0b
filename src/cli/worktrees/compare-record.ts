/**
 * `acp-threads worktrees compare [BESTOF]` (#35): a recorded Best of N (`run --detach` best of N, or a window's
 * hosted one) picked up in the terminal, as a window's compare view picks it up after a reload (core's
 * resumeBestOf, the one algorithm): the candidates the thread host still runs are waited for, the checks not yet
 * run to their end run in their worktrees, each fact goes into the record (a window then shows it), and the
 * comparison is printed as `run` prints it. One process follows a record at a time: one a live window (or another
 * `worktrees compare`) follows is refused. One the thread host finishes (a detached Best of N: its owner is the
 * live host) is followed instead, its progress read from the record as the host writes it, and once the host lets
 * it go ranked its table is printed from the record (nothing runs here); a host that died leaves it to be picked up.
 */
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import type { HostConnection } from "../../core/host/client";
import type { HostEvent } from "../../core/host/protocol";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { finishRecord, followRecord, followedEnd } from "../../core/worktree/best-of";
import { ownedHere, ownerGone, ownerHere, type BestOfRecord } from "../../core/worktree/best-of-record";
import { BestOfRecords } from "../../core/worktree/best-of-records";
import { printRanked, progressNotes } from "../best-of";
import { hostFor } from "../host-client";
import { EXIT, type CliIO } from "../io";

export async function compareRecord(
  io: CliIO,
  id: string | undefined,
  o: { json: boolean; checkTimeoutMs?: number },
): Promise<number> {
  const home = resolveHome(io.env);
  const engine = localEngine({ home });
  const records = new BestOfRecords(homeLayout(home).bestOfFile);
  const say = (text: string) => io.stderr.write(`acp-threads worktrees compare: ${text}\n`);
  const notes = progressNotes(say);
  let { record, summaries } = await engine.call({ op: "bestof.read", ...(id !== undefined ? { id } : {}) });
  if (record.owner?.role === "host" && !ownerGone(record.owner)) {
    say(`the thread host finishes Best of N ${record.id}: following it`);
    if (o.checkTimeoutMs !== undefined)
      say("--check-timeout does not change the host's checks (they keep run's); it applies if the host lets it go");
    record = await followRecord(records, record, { signal: io.signal, onProgress: notes });
    if (io.signal.aborted) return EXIT.interrupted;
    if (!record.finishedAt) say("the thread host let it go unfinished: finishing it here");
    // ranked by the host: summarised by the engine from the record (nothing runs, nothing is written)
    else ({ summaries } = await engine.call({ op: "bestof.read", id: record.id }));
  }
  const store = new ThreadStore(home);
  try {
    const ended =
      record.finishedAt && summaries
        ? summaries
        : await finishHere(io, records, await claim(records, record), store, { ...o, notes, say });
    if (io.signal.aborted) return EXIT.interrupted;
    printRanked(io, ended, o.json);
    return ended.some((c) => c.status === "done") ? EXIT.ok : EXIT.error;
  } finally {
    store.closeAll();
  }
}

/** The record finished here (claimed): its candidates the host still runs waited for, the checks run. */
async function finishHere(
  io: CliIO,
  records: BestOfRecords,
  record: BestOfRecord,
  store: ThreadStore,
  o: { checkTimeoutMs?: number; notes: ReturnType<typeof progressNotes>; say: (text: string) => void },
) {
  const host = await HostRuns.open(io);
  try {
    return await finishRecord({
      records,
      record,
      ...(o.checkTimeoutMs !== undefined ? { checkTimeoutMs: o.checkTimeoutMs } : {}),
      signal: io.signal,
      readThread: (threadId) => store.read(threadId).records,
      onProgress: o.notes,
      follow: async (c, signal) => {
        const waiting = () => o.say(`${c.spec.label}: waiting for its run in the thread host (thread ${c.threadId})`);
        const ended = await host?.waitEnd(c.threadId, signal, waiting);
        return followedEnd(c.threadId, store.read(c.threadId).records, ended);
      },
    });
  } finally {
    host?.close();
  }
}

/** This process follows the record from now on; refused while a live window or another process follows it. */
async function claim(records: BestOfRecords, record: BestOfRecord): Promise<BestOfRecord> {
  let claimed: BestOfRecord | undefined;
  await records.update(record.id, (r) => {
    if (!ownerGone(r.owner) && !ownedHere(r.owner)) return false;
    r.owner = ownerHere();
    claimed = structuredClone(r);
  });
  if (!claimed)
    throw new AcpThreadsError(
      "locked",
      `Best of N ${record.id} is followed by another process (pid ${record.owner?.pid ?? "?"}): its compare view shows it`,
    );
  return claimed;
}

type Ended = Extract<HostEvent, { kind: "ended" }>;

/**
 * The thread host's runs, heard as their rows change: a run is over once its row says it waits for a prompt
 * (`idle`: a kept-open run, the window's) or it is no longer held (`ended`), or the host goes.
 */
class HostRuns {
  readonly #ended = new Map<string, Ended>();
  readonly #over = new Set<string>();
  readonly #waiters = new Set<() => void>();

  private constructor(private readonly conn: HostConnection) {
    conn.onPush((m) => {
      if (m.t === "event" && m.event.kind === "ended") this.#ended.set(m.event.threadId, m.event);
      else if (m.t === "session" && (m.session.state === "idle" || m.session.state === "ended"))
        this.#over.add(m.session.threadId);
      else return;
      for (const w of this.#waiters) w();
    });
    conn.onClose(() => {
      for (const w of this.#waiters) w();
    });
  }

  /** Listening to the running host (undefined: none runs, so none of its runs is still going). */
  static async open(io: CliIO): Promise<HostRuns | undefined> {
    const conn = await hostFor(io, "worktrees compare", false).catch(() => undefined);
    if (!conn) return undefined;
    const runs = new HostRuns(conn);
    try {
      await conn.request({ t: "events" });
    } catch {
      conn.close();
      return undefined;
    }
    return runs;
  }

  /** Resolves once the thread's run is over (its `ended` event when the host told it); rejects when stopped. */
  async waitEnd(threadId: string, signal: AbortSignal, waiting: () => void): Promise<Ended | undefined> {
    // asked after listening: a run that ends meanwhile is heard, one that ended before is not listed
    const st = this.conn.closed ? undefined : await this.conn.request({ t: "status" }).catch(() => undefined);
    const row = st?.t === "status" ? st.status.sessions.find((s) => s.threadId === threadId) : undefined;
    if (row && row.state !== "idle" && row.state !== "ended") {
      waiting();
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (signal.aborted) reject(new AcpThreadsError("interrupted", "interrupted"));
          else if (this.conn.closed || this.#over.has(threadId) || this.#ended.has(threadId)) resolve();
          else return;
          this.#waiters.delete(check);
          signal.removeEventListener("abort", check);
        };
        this.#waiters.add(check);
        signal.addEventListener("abort", check);
        check();
      });
    }
    return this.#ended.get(threadId);
  }

  close(): void {
    this.conn.close();
  }
}
