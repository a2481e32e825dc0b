/**
 * The thread host's hooks into a run (#35), beside hosted-runner.ts: the agent's elicitations go to the clients
 * attached to the thread (first answer wins) while any is, else to the run's own answer (`--elicitation`: with no
 * terminal, `ask` declines); the run's watchdog is pushed to the clients and takes their retries.
 */
import type { ElicitationAsker } from "../model/elicitation";
import type { RetryStep } from "../model/watchdog";
import type { Supervisor } from "../watchdog/supervisor";
import type { HostRunControl } from "./run-control";

/** `mode` ask (the default): the attached clients, else `own`; decline and defaults: `own` as given. */
export function hostElicitor(mode: string | undefined, ctl: HostRunControl, own: ElicitationAsker): ElicitationAsker {
  if (mode !== undefined && mode !== "ask") return own;
  return {
    ask: (prompt) => ctl.elicit(prompt) ?? own.ask(prompt),
    ...(own.completed ? { completed: own.completed.bind(own) } : {}),
  };
}

/** The run's watchdog, pushed to the thread's clients on every change; `retry` acts on it. */
export class HostWatch {
  #supervisor: Supervisor | undefined;

  constructor(private readonly ctl: HostRunControl) {}

  attach(supervisor: Supervisor): void {
    this.#supervisor = supervisor;
    supervisor.onState((st) => this.ctl.watchdog({ ...st, auto: supervisor.mode === "auto" }));
  }

  /** It has an alert with a rung left to take (a dead agent's restart): the run stays for it. */
  offers(): boolean {
    const st = this.#supervisor?.state;
    return !!st?.alert && (st.next !== undefined || st.running !== undefined);
  }

  async retry(step: RetryStep | undefined, dismiss: boolean): Promise<void> {
    const s = this.#supervisor;
    if (!s) throw new Error("this run has no watchdog");
    if (dismiss) return s.dismiss();
    if (!s.state.alert) throw new Error("the watchdog has raised no alert");
    await s.retry(step);
  }
}
