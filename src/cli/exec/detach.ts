/**
 * `exec --detach`: the run goes to the thread host (started when none runs), which owns it in the data home's exec
 * registry; this process prints the run id and returns. The host takes a run only in the asking client's folders:
 * this CLI offers its run's folder (the door is the user's own, so any folder the user names is theirs to offer).
 * `acp-threads exec list|logs|kill` see the run; every VS Code window attached to the host with the folder open
 * shows its terminal, where the user can type into it.
 */
import type { HostExec } from "../../core/host/protocol-exec";
import { hostFor } from "../host-client";
import { EXIT, type CliIO } from "../io";

export async function launchDetached(io: CliIO, exec: HostExec, json: boolean): Promise<number> {
  const conn = (await hostFor(io, "exec --detach", true, { fs: false, roots: [exec.cwd] }))!;
  try {
    const r = await conn.request({ t: "exec_start", exec });
    if (r.t !== "exec_started") {
      io.stderr.write(`acp-threads exec: the thread host answered '${String(r.t)}' to exec_start, not exec_started\n`);
      return EXIT.error;
    }
    const { runId } = r.exec;
    io.stdout.write(json ? `${JSON.stringify({ id: runId, threadId: r.exec.threadId })}\n` : `${runId}\n`);
    io.stderr.write(
      `acp-threads exec: the run is the thread host's; 'acp-threads exec logs ${runId}' reads its output, ` +
        `a VS Code window with ${exec.cwd} open shows its terminal\n`,
    );
    return EXIT.ok;
  } finally {
    conn.close();
  }
}
