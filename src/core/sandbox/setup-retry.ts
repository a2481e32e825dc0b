/**
 * Linux: a bwrap launch that starts again when bwrap failed while setting the sandbox up, before the program ran.
 * A file bwrap binds that is renamed over outside while bwrap mounts it (an agent's state file: a claude outside
 * rewrites `~/.claude.json` all the time) fails bwrap's bind-then-remount ("Unable to remount destination …",
 * or the mount point's own race), and the agent never started.
 *
 * The signal is bwrap's own (`--json-status-fd`, bubblewrap 0.3.2 and later): `{ "child-pid": N }` once it has
 * cloned the sandbox, and `{ "exit-code": N }` only when the program was executed and has exited. A bwrap that
 * exits 1 having written the first and not the second failed in its set-up or at the exec itself: nothing of the
 * program ran, so a new attempt repeats nothing. Anything else (the program's own exit code, a signal, a bwrap
 * that failed before cloning, which another attempt would not mend) ends the launch as it is. The attempts run
 * in a small `/bin/sh` loop, so every launcher (child_process, node-pty, the window's spawner) gets it unchanged,
 * and input already written waits in the pipe for the attempt that runs. Each failed attempt's message (bwrap's
 * words, then ours) stays on stderr; the last attempt is `exec`ed as before. In the other attempts (the first
 * one too) the shell stays bwrap's parent, so bwrap's `--die-with-parent` follows the shell: started through
 * `setpriv --pdeathsig KILL` where there is one, the shell dies with us, and bwrap with it. Without `setpriv`, a
 * group killed by our stop, the mask guard or the parent guard still ends them all.
 */
import type { Launch } from "../platform/shell";

/** Attempts in all (the last is exec'd without the status pipe). */
export const SETUP_ATTEMPTS = 8;
/** The fd the shell reads bwrap's status from (3 is the seccomp filter's). */
const STATUS_FD = 4;

function script(withFilter: boolean): string {
  // fd 5: the real stdout, while the command substitution's pipe takes bwrap's status on fd 4; `exec`, so bwrap's
  // parent is the shell itself (a subshell in between would not die with it)
  const filter = withFilter ? ' 3<"$f"' : "";
  return [
    "f=$1; shift; n=1; exec 5>&1",
    `while [ "$n" -lt ${SETUP_ATTEMPTS} ]; do`,
    `  s=$(exec "$@"${filter} ${STATUS_FD}>&1 1>&5 5>&-); rc=$?`,
    '  case $rc in 1) ;; *) exit "$rc" ;; esac',
    "  case $s in *'\"exit-code\"'*) exit 1 ;; *'\"child-pid\"'*) ;; *) exit 1 ;; esac",
    `  echo "acp-threads: bwrap could not set the sandbox up (attempt $n of ${SETUP_ATTEMPTS}, before the program ran); starting it again" >&2`,
    "  sleep 0.025 2>/dev/null; n=$((n + 1))",
    "done",
    `exec "$@"${filter} ${STATUS_FD}>/dev/null 5>&-`,
  ].join("\n");
}

/**
 * `bwrapArgv` (bwrap and its arguments; with `--seccomp 3` in them when `filter` is given, the filter file then
 * opened on fd 3 for each attempt, as seccomp.ts's `withFilterFd` does) run with set-up retries; the shell
 * through `setpriv` when given.
 */
export function retryingSetup(bwrapArgv: readonly string[], filter?: string, setpriv?: string): Launch {
  const [bwrap, ...args] = bwrapArgv;
  const dieWithUs = setpriv ? ["--pdeathsig", "KILL", "/bin/sh"] : [];
  return {
    file: setpriv ?? "/bin/sh",
    args: [
      ...dieWithUs,
      "-c",
      script(filter !== undefined),
      "acp-threads-sandbox",
      filter ?? "",
      bwrap!,
      "--json-status-fd",
      String(STATUS_FD),
      ...args,
    ],
  };
}
