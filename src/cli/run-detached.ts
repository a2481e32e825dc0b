/**
 * `run --detach` and `run --thread ID` on a thread the thread host holds: the run goes to the host
 * (src/core/host), which starts on demand; this process prints the thread id and returns while the turn runs.
 */
import { AcpThreadsError } from "../core/errors";
import { assertSteered } from "../core/session/steer-inbox";
import type { DetachedRun } from "../core/host/protocol";
import type { HostConnection } from "../core/host/client";
import { refusalCode } from "../core/host/protocol-refusal";
import { contextFromWire, promptToWire } from "../core/host/wire-context";
import type { ContextItem } from "../core/model/context";
import { textWithContext } from "../core/prompt/blocks";
import { resolveHome } from "../core/store/paths";
import { ThreadStore } from "../core/store/thread-store";
import { describeOther } from "../core/host/others";
import { hostFor, otherHostsFor } from "./host-client";
import { EXIT, type CliIO } from "./io";

export async function runDetached(io: CliIO, run: DetachedRun, json: boolean): Promise<number> {
  const conn = (await hostFor(io, "run --detach", true))!;
  try {
    const r = await startOrQueue(io, conn, run);
    if (!r) return EXIT.error;
    io.stdout.write(json ? `${JSON.stringify({ threadId: r.threadId })}\n` : `${r.threadId}\n`);
    io.stderr.write(
      r.queued
        ? `acp-threads run: the thread host runs thread ${r.threadId} already; queued there ('acp-threads attach ${r.threadId}' follows it)\n`
        : `acp-threads run: the turn runs in the thread host; 'acp-threads attach ${r.threadId}' follows it\n`,
    );
    for (const h of await otherHostsFor(io, "run --detach"))
      if (h.sessions !== 0) io.stderr.write(`acp-threads run: note: ${describeOther(h)}\n`);
    return EXIT.ok;
  } finally {
    conn.close();
  }
}

/**
 * Starts `run` in the host. A thread the host runs already (a window or another terminal started it: the host
 * refuses a second run as `held`) takes the prompts in that run instead, as the window's prompt box does.
 */
async function startOrQueue(
  io: CliIO,
  conn: HostConnection,
  run: DetachedRun,
): Promise<{ threadId: string; queued: boolean } | undefined> {
  try {
    const r = await conn.request({ t: "run", run });
    return r.t === "started" ? { threadId: r.threadId, queued: false } : undefined;
  } catch (err) {
    if (refusalCode(err) !== "held" || run.thread === undefined) throw err;
    const threadId = new ThreadStore(resolveHome(io.env)).resolveId(run.thread);
    await queuePrompts(conn, threadId, run.prompts, contextFromWire(run.context));
    return { threadId, queued: true };
  }
}

/** The prompts into the host's run of `threadId`, `context` with the first (the host checks it against its folders). */
async function queuePrompts(
  conn: HostConnection,
  threadId: string,
  prompts: readonly string[],
  context: readonly ContextItem[] = [],
): Promise<void> {
  for (const [i, text] of prompts.entries()) {
    const prompt = !i && context.length ? promptToWire(textWithContext(text, [...context])) : { text };
    await conn.request({ t: "prompt", threadId, ...prompt });
  }
}

/** The host's connection when it holds `thread` (resolved to its id), else undefined. */
export async function hostHolding(
  io: CliIO,
  thread: string,
  command: string,
): Promise<{ conn: HostConnection; threadId: string } | undefined> {
  const conn = await hostFor(io, command, false).catch(() => undefined);
  if (!conn) return undefined;
  try {
    const threadId = new ThreadStore(resolveHome(io.env)).resolveId(thread);
    const st = await conn.request({ t: "status" });
    if (st.t === "status" && st.status.sessions.some((s) => s.threadId === threadId && s.state !== "ended"))
      return { conn, threadId };
  } catch (err) {
    conn.close();
    if (err instanceof AcpThreadsError && err.code !== "protocol") throw err;
    return undefined;
  }
  conn.close();
  return undefined;
}

/**
 * `run --thread ID PROMPT...` / `--steer TEXT` on a thread the host holds: sent to the host. `context` (`--file`,
 * `--image`) goes with the first prompt, as in a run of the CLI's own; the host checks it against the run's folders.
 */
export async function sendToHost(
  io: CliIO,
  held: { conn: HostConnection; threadId: string },
  what: { prompts: string[]; context?: ContextItem[] } | { steer: string },
): Promise<number> {
  const { conn, threadId } = held;
  try {
    if ("steer" in what) {
      const reply = await conn.request({ t: "steer", threadId, text: what.steer });
      assertSteered(threadId, reply.t === "steered" ? reply.outcome : undefined);
      io.stderr.write("acp-threads run: steered into the running turn (thread host)\n");
    } else {
      await queuePrompts(conn, threadId, what.prompts, what.context);
      io.stderr.write(
        `acp-threads run: thread ${threadId} runs in the thread host; queued there ('acp-threads attach ${threadId}' follows it)\n`,
      );
    }
    return EXIT.ok;
  } finally {
    conn.close();
  }
}
