/**
 * The Best of N records' requests (requests-bestof.ts): the record file is the data home's own, the record is
 * picked here from the id the caller gives, and a finished record is summarised from itself and its candidates'
 * threads (the candidates' agent ends and checks are in it: nothing runs, nothing is written).
 */
import { AcpThreadsError } from "../errors";
import { homeLayout } from "../store/paths";
import type { ThreadStore } from "../store/thread-store";
import { followedEnd, resumeBestOf } from "../worktree/best-of";
import { resumedCandidate, type BestOfRecord } from "../worktree/best-of-record";
import { BestOfRecords } from "../worktree/best-of-records";
import { isIdOrPrefix } from "../model/thread-id";
import type { Handlers } from "./serve-types";

const recordsOf = (store: ThreadStore) => new BestOfRecords(homeLayout(store.home).bestOfFile);

/** The record `id` names (its id, or a unique start of one); none: the newest one. */
function pick(all: readonly BestOfRecord[], id: string | undefined): BestOfRecord {
  const found = id === undefined ? all.slice(-1) : all.filter((r) => r.id.startsWith(id));
  if (found.length === 1) return found[0]!;
  if (!found.length)
    throw new AcpThreadsError("not_found", id === undefined ? "no Best of N is recorded" : `no Best of N ${id}`);
  throw new AcpThreadsError("usage", `${id} names several Best of N runs: give more of its id`);
}

export const bestOfOps: Handlers<"bestof.list" | "bestof.read"> = {
  "bestof.list": ({ store }) => recordsOf(store).list(),
  "bestof.read": async ({ store }, req) => {
    if (req.id !== undefined && !isIdOrPrefix(req.id))
      throw new AcpThreadsError("usage", `'${req.id}' is not a Best of N id`);
    const record = pick(await recordsOf(store).list(), req.id);
    if (!record.finishedAt) return { record };
    // ranked by the host: every end and check is in the record (a candidate without its end is read from its thread)
    const summaries = await resumeBestOf({
      // a worktree without a thread is summarised as none, never removed here (its finisher removed it: a read
      // request writes nothing), and no check is given: none runs
      candidates: record.candidates.map(resumedCandidate).map((c) => (c.threadId ? c : { ...c, worktree: null })),
      readThread: (threadId) => store.read(threadId).records,
      follow: (c) => Promise.resolve(followedEnd(c.threadId, store.read(c.threadId).records)),
    });
    return { record, summaries };
  },
};
