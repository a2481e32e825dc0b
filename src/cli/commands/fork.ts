/**
 * `acp-threads fork THREAD [--at N] [--agent A]`: a new thread with THREAD's conversation up to message N (as
 * `threads show` numbers them; default: the last), linked both ways. The same agent forking at the last message
 * uses the agent's `session/fork` when it offers it; otherwise the fork's first turn opens a new session seeded
 * with that history. Continue it with `acp-threads run --thread NEW`.
 */
import { resolve } from "node:path";
import { createAgentRuntime } from "../../core/acp/agent-runtime";
import { forkAgentSession } from "../../core/acp/fork";
import { AcpThreadsError, errorMessage } from "../../core/errors";
import { agentRefOf, type AgentSpec } from "../../core/model/agent";
import { homeLayout, resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import { localEngine } from "../../core/engine/local";
import { forkCut, numberedMessages } from "../../core/handoff/fork-cut";
import { command } from "../command";
import { FORMAT } from "../flags";
import { linkInHost } from "../host-client";
import { EXIT } from "../io";
import { agentOf } from "../thread-target";

export const main = command(
  {
    name: "fork",
    synopsis: "THREAD [--at N] [--agent A]",
    args: { min: 1, max: 1, name: "THREAD" },
    flags: {
      at: {
        type: "number",
        integer: true,
        arg: "N",
        help: "fork after message N (as 'threads show' numbers them; default: the last)",
      },
      agent: { type: "string", arg: "A", help: "the agent the fork runs (default: the thread's)" },
      format: FORMAT,
    },
    notes: `The fork's origin names THREAD and N; THREAD lists the fork (unless another process holds it: then only
the fork links, and says so). Nothing is sent to an agent until you run the fork.`,
  },
  async ({ io, flags, args }) => {
    const store = new ThreadStore(homeLayout(resolveHome(io.env)).home);
    const sourceId = store.resolveId(args[0]!);
    const { metadata, records } = store.read(sourceId);
    const at = flags.at ?? numberedMessages(records).length;
    const cut = forkCut(sourceId, records, at);
    // the agents on this command's PATH: presets, agents added from the ACP Registry, command lines
    const engine = localEngine({ store, env: io.env });
    const cwd = resolve(metadata.cwd);
    let spec: AgentSpec;
    if (flags.agent) spec = (await engine.call({ op: "agents.resolve", agent: flags.agent, cwd })).spec;
    else {
      spec = await agentOf(engine, metadata);
      if (!(await engine.call({ op: "agents.which", spec, cwd })).program)
        throw new AcpThreadsError(
          "agent_not_found",
          `${metadata.agent.name} (the agent of thread ${sourceId}) is not installed here ('${spec.command}' not found): install it, or fork to another agent with --agent; nothing was created`,
        );
    }
    const sameAgent = spec.id === metadata.agent.id;
    let agentSessionId: string | undefined;
    let how = "seeded: its first turn opens a new session with this history";
    if (sameAgent && cut.atEnd && metadata.agentSessionId) {
      const runtime = createAgentRuntime({ agent: spec, cwd: metadata.cwd });
      try {
        agentSessionId = await forkAgentSession(runtime, metadata.agentSessionId, metadata.cwd);
        how = `session/fork → agent session ${agentSessionId}`;
      } catch (err) {
        how = `seeded (session/fork: ${errorMessage(err)})`;
      } finally {
        await runtime.close().catch(() => undefined);
      }
    }
    const agent = agentRefOf(spec);
    const fork = await engine.call({
      op: "fork.write",
      sourceId,
      at,
      ...(sameAgent ? {} : { agent }),
      ...(agentSessionId ? { agentSessionId } : {}),
    });
    // the thread host's run holds the source: the host lists the fork
    const unlinked = await linkInHost(io, "fork", sourceId, { forks: [fork.threadId] }, fork.unlinked);
    if (flags.format === "json")
      io.stdout.write(
        `${JSON.stringify({ threadId: fork.threadId, forkedFrom: { threadId: sourceId, messageIndex: at }, agentSessionId: agentSessionId ?? null, linked: !unlinked })}\n`,
      );
    else {
      io.stdout.write(`${fork.threadId}\n`);
      io.stderr.write(`acp-threads fork: ${sourceId} at message ${at} → ${fork.threadId} (${how})\n`);
    }
    if (unlinked) io.stderr.write(`acp-threads fork: note: ${sourceId} does not list the fork yet: ${unlinked}\n`);
    return EXIT.ok;
  },
  "fork a thread at a message into a new linked thread",
);
