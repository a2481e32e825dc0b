/**
 * `acp-threads host stop` without `--force` (#35): refused while the host still works for someone, naming what. The
 * sessions in a turn, the exec runs, and the detached Best of N it is finishing (checks, ranking: a stop would cut
 * the checks short and leave the record for a client to finish). Runs waiting idle for a prompt do not count: they
 * stop with the host, no turn of theirs cut.
 */
export interface HostWork {
  sessions: number;
  execs: number;
  bestOfs: number;
}

/** Why a plain stop is refused, or undefined when nothing works. */
export function stopRefusal(work: HostWork): string | undefined {
  const what = [
    work.sessions && `${work.sessions} session(s)`,
    work.execs && `${work.execs} exec run(s)`,
    work.bestOfs && `${work.bestOfs} Best of N being checked and ranked`,
  ].filter(Boolean);
  return what.length
    ? `${what.join(" and ")} still run in the host; 'acp-threads host stop --force' stops them`
    : undefined;
}
