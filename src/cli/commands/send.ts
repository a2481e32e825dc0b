/**
 * `acp-threads send ID [--raw|--keys] TEXT...`: types into a running exec run. A run the thread host owns (an
 * `exec --detach` run, or a window's run with `acpThreads.host.runSessions: host`) is typed into through the host,
 * which takes it only from a client whose folders hold the run (this CLI offers the run's folder, or its
 * worktree's repository: the door is the user's own, as for `exec --detach`). A run another process owns (an
 * `exec --background` supervisor, a window's own run) is refused as before: input works only in its owner.
 */
import { AcpThreadsError } from "../../core/errors";
import type { HostExecInput } from "../../core/host/protocol-exec";
import { HostRefusal } from "../../core/host/protocol-refusal";
import { command } from "../command";
import { openRegistry, statusLabel } from "../exec/context";
import { hostFor } from "../host-client";
import { EXIT } from "../io";

const SPEC = {
  name: "send",
  synopsis: "ID [--raw|--keys] TEXT...",
  args: { min: 2, rest: true, name: "ID TEXT..." },
  flags: {
    raw: { type: "boolean", help: "type the text as it is, without pressing Enter" },
    keys: { type: "boolean", help: "the words are key names (C-c, Enter, Up, Tab...) pressed in turn" },
  },
  notes: "Without --raw or --keys the words are typed as one line (joined by spaces), then Enter.",
} as const;

export const main = command(SPEC, async ({ io, flags, args }) => {
  if (flags.raw && flags.keys) throw new AcpThreadsError("usage", "--raw goes without --keys");
  const [id, ...words] = args as [string, ...string[]];
  const registry = openRegistry(io);
  try {
    const run = registry.resolve(id);
    if (run.status !== "running") {
      io.stderr.write(`acp-threads send: run ${run.id} is not running (${statusLabel(run)})\n`);
      return EXIT.error;
    }
    const input: HostExecInput = flags.keys
      ? { keys: words }
      : flags.raw
        ? { data: words.join(" ") }
        : { line: words.join(" ") };
    const offer = { fs: false, roots: [run.worktree?.repo ?? run.cwd] };
    const conn = await hostFor(io, "send", false, offer);
    const viaHost = await conn
      ?.request({ t: "exec_input", runId: run.id, input })
      .then(
        () => true,
        (err: unknown) => {
          if (err instanceof HostRefusal && err.reason === "exec_not_hosted") return false; // not the host's run
          throw err;
        },
      )
      .finally(() => conn.close());
    if (viaHost) return EXIT.ok;
    // another process owns it: the registry says which (input works only there)
    if (input.keys) registry.sendKeys(run.id, input.keys);
    else if (input.data !== undefined) registry.write(run.id, input.data);
    else registry.submit(run.id, input.line!);
    return EXIT.ok;
  } finally {
    registry.dispose();
  }
});
