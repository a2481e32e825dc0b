/**
 * `acp-threads handoff THREAD --agent X [--edit | --brief-file FILE | --print] [PROMPT...]`: hands a thread's
 * work to another agent: a new thread with X, seeded with a compact brief of the old one (goal, plan and status,
 * files touched, commands, last message, what was left open), the two threads linked to each other.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AcpThreadsError } from "../../core/errors";
import { handoffTitle, renderHandoffBrief } from "../../core/handoff/brief";
import { localEngine } from "../../core/engine/local";
import { stderrLogger } from "../stderr-logger";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { DEFAULT_STALL_MS } from "../../core/model/watchdog";
import { command } from "../command";
import { FORMAT, parseEnvPairs, timerFlag } from "../flags";
import { linkInHost } from "../host-client";
import { EXIT, type CliIO } from "../io";
import { jsonOutput, textOutput } from "../output/turn-output";
import { runInProcess } from "../run-in-process";
import { secondsToTimerMs } from "../../core/util/guards";

/** Lets the person edit the brief in $VISUAL / $EDITOR (like `git commit`); returns the edited text. */
function editInEditor(io: CliIO, text: string): string {
  const editor = io.env.VISUAL || io.env.EDITOR;
  if (!editor) throw new AcpThreadsError("usage", "--edit needs $VISUAL or $EDITOR (or use --print and --brief-file)");
  const dir = mkdtempSync(join(tmpdir(), "acp-threads-handoff-"));
  const file = join(dir, "handoff-brief.md");
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const r = spawnSync(`${editor} "${file}"`, { shell: true, stdio: "inherit" });
    if (r.status !== 0)
      throw new AcpThreadsError("usage", `the editor exited with ${r.status ?? r.signal}; nothing sent`);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const main = command(
  {
    name: "handoff",
    synopsis: "THREAD --agent X [--edit | --brief-file FILE | --print] [options] [PROMPT...]",
    args: { min: 1, name: "THREAD" },
    flags: {
      agent: { type: "string", arg: "X", required: true, help: "the agent taking over (preset id or command line)" },
      print: { type: "boolean", help: "only print the brief (edit it, then pass it back with --brief-file)" },
      edit: { type: "boolean", help: "edit the brief in $VISUAL / $EDITOR before it is sent" },
      "brief-file": { type: "string", arg: "FILE", help: "send this text instead of the generated brief" },
      permission: {
        type: "enum",
        values: ["approve-all", "approve-reads", "deny-all"],
        default: "approve-reads",
        help: "how permission requests are answered",
      },
      format: FORMAT,
      timeout: { type: "number", above: 0, ...timerFlag(1000), arg: "S", help: "give up after S seconds (exit 3)" },
      env: { type: "list", arg: "K=V", help: "extra environment for the agent" },
      "stall-timeout": { type: "number", min: 0, arg: "S", help: "watchdog stall time (default 180; 0: off)" },
      retry: { type: "enum", values: ["offer", "auto", "off"], default: "offer", help: "watchdog retry ladder" },
    },
    notes: `THREAD is a thread id or a unique prefix. PROMPTs after the brief are sent as further turns. The new
thread's origin names THREAD and THREAD lists the new one (the thread host lists it when its run holds THREAD; when
another process holds it, only the new side links, and says so). Exit codes as for 'acp-threads run'.`,
  },
  async ({ io, flags, args }) => {
    const layout = homeLayout(resolveHome(io.env));
    const logger = stderrLogger("warn");
    const store = new ThreadStore(layout.home, { logger });
    const [threadArg, ...more] = args;
    const engine = localEngine({ store });
    const { threadId: fromId } = await engine.call({ op: "threads.resolve", threadId: threadArg! });
    const metadata = await engine.call({ op: "threads.meta", threadId: fromId });
    const built = await engine.call({ op: "handoff.brief", threadId: fromId });
    let brief = flags["brief-file"]
      ? readFileSync(resolve(io.cwd, flags["brief-file"]), "utf8")
      : renderHandoffBrief(built);
    if (flags.print) {
      io.stdout.write(brief.endsWith("\n") ? brief : `${brief}\n`);
      return EXIT.ok;
    }
    if (flags.edit) brief = editInEditor(io, brief);
    if (!brief.trim()) throw new AcpThreadsError("usage", "the brief is empty; nothing sent");
    const output = flags.format === "json" ? jsonOutput(io.stdout) : textOutput(io.stdout, io.stderr, "handoff");
    let linked: Promise<void> = Promise.resolve();
    const summary = await runInProcess({
      io,
      store,
      logger,
      output,
      prompts: [brief, ...more],
      agent: flags.agent,
      cwd: metadata.cwd,
      permission: flags.permission,
      env: parseEnvPairs(flags.env),
      timeoutMs: flags.timeout !== undefined ? secondsToTimerMs(flags.timeout) : undefined,
      wait: true,
      stallMs: (flags["stall-timeout"] ?? DEFAULT_STALL_MS / 1000) * 1000,
      retry: flags.retry,
      origin: { kind: "handoff", source: fromId },
      title: handoffTitle(metadata, built.goal), // as the editor names it, never the brief's first line
      onThread: (toId) => {
        io.stderr.write(`acp-threads handoff: ${metadata.agent.name} → ${flags.agent}: new thread ${toId}\n`);
        // the thread host's run holds the source: the host lists the handoff (as for `fork`), while the turns run
        linked = engine
          .call({ op: "handoff.link", from: fromId, to: toId })
          .then(({ error }) => linkInHost(io, "handoff", fromId, { handedOffTo: [toId] }, error))
          .then((unlinked) => {
            if (unlinked)
              io.stderr.write(`acp-threads handoff: note: ${fromId} does not list the new thread yet: ${unlinked}\n`);
          });
      },
    });
    await linked;
    if (summary.error) io.stderr.write(`acp-threads handoff: ${summary.error}\n`);
    output.summary(summary);
    return summary.exitCode;
  },
);
