/**
 * Starting one agent's ACP connection for a runtime (agent-runtime.ts): the transport connected with our client
 * app, the agent's death turned into a rejection every waiting request races against, `initialize` asked, and
 * the protocol version checked by the caller. An agent that exits while initializing is explained from its exit
 * and the tail of its stderr (agent-failure.ts).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { methods, type ClientApp, type ClientConnection } from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import type { AgentSpec } from "../model/agent";
import { exitedDuringInitialize, exitSoon } from "./agent-failure";
import { clientInitializeParams } from "./initialize";
import type { AgentCapabilitiesView } from "./runtime";
import type { AgentTransport, TransportHooks } from "./transport";

export interface AgentConnectOptions {
  agent: AgentSpec;
  transport: AgentTransport;
  app: ClientApp;
  hooks: TransportHooks;
  /** Offer elicitation in `initialize` (a host that answers it). */
  elicitation: boolean;
  /** The connection and the agent's death, as soon as they exist (the agent may call us before it answers). */
  connected(conn: ClientConnection, death: Promise<never>): void;
  /** The agent process is gone (the runtime marks itself failed unless it was closing). */
  exited(): void;
  /** `initialize` did not answer: the runtime is failed, the agent stopped. */
  failed(): void;
}

/** Connects and initializes; resolves with the agent's `initialize` answer. */
export async function connectAgent(o: AgentConnectOptions): Promise<acp.InitializeResponse> {
  const { agent, transport } = o;
  const conn = await transport.connect(o.app, o.hooks);
  const death = transport.exited.then((exit) => {
    o.exited();
    throw new AcpThreadsError(
      "agent_exited",
      `${agent.displayName} exited (code ${exit.code}, signal ${exit.signal})`,
      {
        stderrTail: transport.stderrTail(),
      },
    );
  });
  death.catch(() => {});
  o.connected(conn, death);
  try {
    const init = conn.agent.request(methods.agent.initialize, clientInitializeParams({ elicitation: o.elicitation }));
    return await Promise.race([init, death]);
  } catch (err) {
    o.failed();
    const exit = await exitSoon(transport);
    await transport.stop();
    throw exitedDuringInitialize(agent, err, exit, transport.stderrTail());
  }
}

/** What the agent said of itself in `initialize`, as hosts read it. */
export const capabilitiesView = (init: acp.InitializeResponse): AgentCapabilitiesView => ({
  protocolVersion: init.protocolVersion,
  agentInfo: init.agentInfo,
  agentCapabilities: init.agentCapabilities ?? {},
  authMethods: init.authMethods ?? [],
  meta: init._meta,
});
