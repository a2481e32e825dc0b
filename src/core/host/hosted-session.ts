/**
 * A hosted thread's session-state relay (session-state.ts): the run's modes, config options, slash commands and
 * login as its runner last reported them, told to the thread's clients on every change, and the clients' changes
 * of them, checked against what the agent offers and refused once the run is over.
 */
import type { HostPush } from "./protocol";
import { checkedConfig, checkedMode, type HostSessionState, type SessionControls } from "./session-state";

export interface HostedSessionOptions {
  threadId: string;
  /** The run is not over. */
  live: () => boolean;
  /** The live session's controls (none: a runner that has none). */
  controls: () => SessionControls | undefined;
  /** Tells every attached client now. */
  tell: (msg: Extract<HostPush, { t: "session_state" }>) => void;
}

export class HostedSession {
  /** The run's session state, last as the runner reported it. */
  #state: HostSessionState | undefined;

  constructor(private readonly o: HostedSessionOptions) {}

  /** The state while the run lives (a client attaching gets it). */
  get current(): HostSessionState | undefined {
    return this.o.live() ? this.#state : undefined;
  }

  /** The run's session state changed: every attached client is told (a client attaching later gets it then). */
  update(state: HostSessionState): void {
    this.#state = state;
    this.o.tell({ t: "session_state", threadId: this.o.threadId, state });
  }

  /** The live session's controls, refused once the run is over (or for a runner that has none). */
  #controls(): SessionControls {
    const controls = this.o.controls();
    if (!this.o.live() || !controls || !this.#state)
      throw new Error(`no run of thread ${this.o.threadId} is live in the host: its session cannot be changed now`);
    return controls;
  }

  /** A client's mode change: refused unless the agent offers that mode; the new state follows as a push. */
  async setMode(modeId: unknown): Promise<void> {
    const controls = this.#controls();
    await controls.setMode(checkedMode(this.#state, modeId));
  }

  /** A client's config change (the model among them): refused unless the agent offers that option and value. */
  async setConfig(configId: unknown, value: unknown): Promise<void> {
    const controls = this.#controls();
    const checked = checkedConfig(this.#state, configId, value);
    await controls.setConfig(checked.configId, checked.value);
  }

  /** Logs the run's agent in or out, when it offers that. */
  async auth(action: unknown): Promise<void> {
    const controls = this.#controls();
    const can = this.#state?.authActions;
    if (action !== "login" && action !== "logout") throw new Error("the action is not 'login' or 'logout'");
    if (!can?.[action])
      throw new Error(
        `${this.#state?.agentName} does not offer ${action === "login" ? "logging in" : "logging out"} over ACP`,
      );
    await controls.auth(action);
  }
}
