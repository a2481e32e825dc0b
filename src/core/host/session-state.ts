/**
 * A hosted session's state for its clients' controls (#35): the agent's modes, config options (its model among
 * them), slash commands, prompt capabilities and login state, as the last session/new|load answer gave them and
 * every update since changed them. The host's runner follows its session into one (`SessionStateFollower`), the
 * host keeps the latest per thread and pushes it to the attached clients (`session_state`), again on attach; a
 * client's change is checked against it (`checkedMode`, `checkedConfig`) before the run applies it
 * (`sessionControls`): a mode or value the agent did not offer never reaches the agent.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AuthStatus } from "../acp/auth-status";
import type { AcpAgentRuntime } from "../acp/engine-api";
import type { AgentCapabilitiesView, AgentRuntime, SessionInfo } from "../acp/runtime";
import { steeringUnavailable } from "../acp/steering";
import type { Disposable } from "../lifecycle";
import type { RuntimeEvent } from "../model/events";

/** What is followed and changed here of the run's session (core/session.ts's ThreadSession). */
export interface StatefulSession {
  readonly sessionInfo: SessionInfo | undefined;
  readonly capabilities: AgentCapabilitiesView | undefined;
  readonly runtime: AgentRuntime;
  readonly agentSessionId: string;
  onEvent(listener: (e: RuntimeEvent) => void): Disposable;
  onStatus(listener: (status: string) => void): Disposable;
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: string | boolean): Promise<unknown>;
}

export interface HostSessionState {
  agentName: string;
  /** The agent's modes (legacy `modes`), `currentModeId` the latest it reported or was set to. */
  modes: acp.SessionModeState | null;
  /** The agent's config options as it last listed them (a set answers the new list). */
  configOptions: acp.SessionConfigOption[];
  /** The switch the permission policy made out of an agent mode that approves on its own (pickers-view.ts). */
  policyMode?: SessionInfo["policyMode"];
  /** The agent's slash commands, as it advertised them last. */
  commands: acp.AvailableCommand[];
  promptCaps: acp.PromptCapabilities | null;
  /** Why a message cannot be steered into the running turn (null: it can). */
  steerBlocked: string | null;
  /** The login state the agent last reported (`_auth/status_update`); never written to the thread. */
  authStatus?: AuthStatus;
  /** What the agent offers: `authenticate` (an auth method) and `logout` (advertised). */
  authActions: { login: boolean; logout: boolean };
}

/** What a client may ask of a hosted session's state; the run applies it (`ThreadControl`). */
export interface SessionControls {
  setMode(modeId: string): Promise<void>;
  setConfig(configId: string, value: string | boolean): Promise<void>;
  auth(action: "login" | "logout"): Promise<void>;
}

/** The longest mode id, config id or value a client may send. */
export const STATE_ID_MAX = 200;

/**
 * Follows a run's session into its state: `onState` on every change (mode, config options, slash commands, login
 * state; a restarted agent's new runtime and session answer), never twice the same. Agents advertise their slash
 * commands and login state right after session/new, outside any turn and before the session is handed on: each of
 * the run's runtimes is tapped from its creation (`runtime`), the session once it is open (`follow`).
 */
export class SessionStateFollower implements Disposable {
  /** The slash commands each agent session advertised last, by its id (a runtime serves one run's sessions). */
  readonly #commands = new Map<string, acp.AvailableCommand[]>();
  readonly #subs: Disposable[] = [];
  #session: StatefulSession | undefined;
  #runtime: AgentRuntime | undefined;
  #modeId: string | undefined;
  #options: acp.SessionConfigOption[] | undefined;
  #last = "";
  #agentName = "";

  constructor(private readonly onState: (state: HostSessionState) => void) {}

  /** A runtime of the run, just created: its slash commands and login state are followed from now. */
  runtime(rt: Partial<AcpAgentRuntime>): void {
    const subs = [
      rt.onEvent?.(({ sessionId, event }) => {
        if (event.type !== "commands") return;
        this.#commands.set(sessionId, event.commands);
        this.#emit();
      }),
      rt.onAuthStatus?.(() => this.#emit()),
    ];
    for (const d of subs) if (d) this.#subs.push(d);
  }

  /** The run's session is open: its state goes to the clients now and on every change. */
  follow(s: StatefulSession, agentName: string): void {
    this.#session = s;
    this.#agentName = agentName;
    this.#subs.push(
      s.onEvent((e) => {
        if (e.type === "mode") this.#modeId = e.modeId;
        else if (e.type === "config_options") this.#options = e.options;
        else if (e.type === "commands") this.#commands.set(s.agentSessionId, e.commands);
        else return;
        this.#emit();
      }),
      s.onStatus(() => this.#emit()),
    );
    this.#emit();
  }

  #emit(): void {
    const s = this.#session;
    if (!s) return;
    if (s.runtime !== this.#runtime) {
      // a restart: the new session answer's modes and options, not the old process's changes
      this.#runtime = s.runtime;
      this.#modeId = undefined;
      this.#options = undefined;
    }
    const state = this.#build(s);
    const text = JSON.stringify(state);
    if (text === this.#last) return;
    this.#last = text;
    this.onState(state);
  }

  #build(s: StatefulSession): HostSessionState {
    const info = s.sessionInfo;
    const caps = s.capabilities;
    const auth = (s.runtime as Partial<AcpAgentRuntime>).authStatus?.();
    return {
      agentName: this.#agentName,
      modes: info?.modes ? { ...info.modes, ...(this.#modeId ? { currentModeId: this.#modeId } : {}) } : null,
      configOptions: this.#options ?? info?.configOptions ?? [],
      ...(info?.policyMode ? { policyMode: info.policyMode } : {}),
      commands: this.#commands.get(s.agentSessionId) ?? [],
      promptCaps: caps?.agentCapabilities.promptCapabilities ?? null,
      steerBlocked: steeringUnavailable(s.runtime, this.#agentName) ?? null,
      ...(auth ? { authStatus: auth } : {}),
      authActions: { login: !!caps?.authMethods.length, logout: !!caps?.agentCapabilities.auth?.logout },
    };
  }

  dispose(): void {
    for (const d of this.#subs.splice(0)) d.dispose();
    this.#session = undefined;
  }
}

/** The run's side of a client's change: applied to the live session, its update followed like the agent's own. */
export function sessionControls(s: StatefulSession, agentName: string): SessionControls {
  return {
    setMode: (modeId) => s.setMode(modeId),
    setConfig: async (configId, value) => void (await s.setConfigOption(configId, value)),
    auth: async (action) => {
      const rt = s.runtime as Partial<AcpAgentRuntime>;
      if (!rt.login || !rt.logout) throw new Error(`${agentName} is not running`);
      await (action === "login" ? rt.login() : rt.logout());
    },
  };
}

const idOf = (value: unknown, what: string): string => {
  if (typeof value !== "string" || !value || value.length > STATE_ID_MAX)
    throw new Error(`the ${what} is not a string of 1 to ${STATE_ID_MAX} characters`);
  return value;
};

/** A mode id a client sends, refused unless the agent offers that mode. */
export function checkedMode(state: HostSessionState | undefined, modeId: unknown): string {
  const id = idOf(modeId, "mode id");
  const modes = state?.modes?.availableModes ?? [];
  if (!modes.length) throw new Error(`${state?.agentName ?? "the agent"} offers no modes`);
  if (!modes.some((m) => m.id === id))
    throw new Error(`${state?.agentName} has no mode '${id}'; its modes are ${modes.map((m) => m.id).join(", ")}`);
  return id;
}

/** A config option's new value a client sends, refused unless the agent offers that option and that value. */
export function checkedConfig(
  state: HostSessionState | undefined,
  configId: unknown,
  value: unknown,
): { configId: string; value: string | boolean } {
  const id = idOf(configId, "config option id");
  const option = state?.configOptions.find((o) => o.id === id);
  if (!option) throw new Error(`${state?.agentName ?? "the agent"} has no config option '${id}'`);
  if (option.type === "boolean") {
    if (typeof value !== "boolean") throw new Error(`'${id}' takes true or false`);
    return { configId: id, value };
  }
  if (option.type !== "select") throw new Error(`'${id}' cannot be set here`);
  const values = option.options.flatMap((x) => ("value" in x ? [x.value] : x.options.map((y) => y.value)));
  const v = idOf(value, "value");
  if (!values.includes(v)) throw new Error(`'${id}' has no value '${v}'; its values are ${values.join(", ")}`);
  return { configId: id, value: v };
}
