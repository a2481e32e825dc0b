/** How the host drives a hosted thread's run (server.ts makes one per run; hosted-thread.ts and host-requests.ts use it). */
import type { RetryStep } from "../model/watchdog";
import type { HostMetaPatch } from "./protocol";
import type { SessionControls } from "./session-state";
import type { WirePromptPart } from "./wire-context";

export interface ThreadControl {
  /** Queues (or runs, when idle) a prompt; `parts`: with its context, checked first (rejects: nothing queued). */
  prompt(text: string, parts?: WirePromptPart[]): void | Promise<void>;
  cancel(): Promise<void>;
  /** Into the running turn; `parts`: with its context, checked as a prompt's (rejects: nothing steered). */
  steer(text: string, parts?: WirePromptPart[]): Promise<string>;
  /** Takes a prompt out of the run's queue; false when it is not there (its turn started). */
  unqueue?(text: string): boolean;
  /** The user's title (null: cleared), written through the run's own handle of the thread (a `meta_patch` record). */
  rename?(title: string | null): void;
  /**
   * Lists forks / handoffs of the thread (a checked `patch`, meta-patch.ts): each link checked against the store,
   * then appended to the thread's own lists through the run's handle; rejects, nothing written, when one is refused.
   */
  link?(links: HostMetaPatch): Promise<void>;
  /** True once the run takes no more prompts (its last turn done, or stopped): a prompt is refused `run_ending`. */
  ending?(): boolean;
  /** Ends the run (`stop_thread`, an idle run no client follows): a running turn is cancelled, the agent closed. */
  stop?(): void;
  /** Mode, config options, login of the live session (session-state.ts); the state follows by `sessionState`. */
  session?: SessionControls;
  /** Takes the watchdog's rung `step` (none: the next), or forgets its alert (`dismiss`); absent: no watchdog. */
  retry?(step: RetryStep | undefined, dismiss: boolean): Promise<void>;
}
