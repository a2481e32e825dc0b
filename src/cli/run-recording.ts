/**
 * Records an `acp-threads run` session as a thread, like every session the extension runs: the runtime is
 * wrapped so the thread starts when the agent session opens, each turn's events go through a LiveThread
 * (coalesced messages, final tool-call states, metadata only as patches), and the thread is closed with the
 * runtime. Recording never fails a run: a store error is reported once and the run goes on unrecorded.
 */
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import { errorMessage } from "../core/errors";
import type { AgentSpec } from "../core/model/agent";
import type { RuntimeEvent } from "../core/model/events";
import { gitInfo } from "../core/store/git-info";
import type { ThreadStore } from "../core/store/thread-store";
import { LiveThread, modelOf } from "../core/thread/live-thread";

export interface RecordedRun {
  runtime: AcpAgentRuntime;
  /** The thread id once the session opened (undefined if recording failed or the session never opened). */
  threadId(): string | undefined;
}

export function recordRunAsThread(
  rt: AcpAgentRuntime,
  opts: { store: ThreadStore; agent: AgentSpec; cwd: string; onError: (message: string) => void },
): RecordedRun {
  let live: LiveThread | undefined;
  let failed = false;
  const guard = (what: string, fn: () => void) => {
    if (failed) return;
    try {
      fn();
    } catch (err) {
      failed = true;
      opts.onError(`thread not recorded (${what}): ${errorMessage(err)}`);
    }
  };
  const overrides: Partial<AcpAgentRuntime> = {};
  // A proxy, not a subclass: the runtime keeps #private state, so every other member runs on the real object.
  const wrapped = new Proxy(rt, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof AcpAgentRuntime];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  overrides.ensureSession = async (req) => {
    const info = await rt.ensureSession(req);
    guard("start", () => {
      const agent = {
        id: opts.agent.id,
        name: opts.agent.displayName,
        command: opts.agent.command,
        args: opts.agent.args,
      };
      const handle = opts.store.create({
        agent,
        mode: "acp",
        cwd: opts.cwd,
        ...gitInfo(opts.cwd),
        agentSessionId: info.sessionId,
      });
      live = new LiveThread(handle, opts.store.readPath(handle.path).metadata);
      const model = modelOf(info.configOptions);
      if (model) live.patch({ model });
      const agentInfo = rt.getCapabilities()?.agentInfo;
      live.sessionOpened(
        info.sessionId,
        info.origin,
        agentInfo?.name ? { name: agentInfo.name, version: agentInfo.version ?? undefined } : undefined,
      );
    });
    return info;
  };
  overrides.runTurn = (sessionId, prompt, turnOpts) => {
    const events = rt.runTurn(sessionId, prompt, turnOpts);
    const text = typeof prompt === "string" ? prompt : prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    guard("turn", () => live?.beginTurn(text));
    return (async function* (): AsyncGenerator<RuntimeEvent> {
      let ended = false;
      try {
        for await (const event of events) {
          guard("event", () => live?.record(event));
          if (event.type === "done") ended = true; // recorded above: record(done) ends the turn with its usage
          if (event.type === "error") {
            ended = true;
            guard("turn end", () => live?.endTurn("error", "failed"));
          }
          yield event;
        }
      } finally {
        if (!ended) guard("turn end", () => live?.endTurn("cancelled"));
      }
    })();
  };
  overrides.close = async () => {
    await rt.close();
    guard("close", () => live?.close());
  };
  return { runtime: wrapped, threadId: () => live?.threadId };
}
