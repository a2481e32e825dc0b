/**
 * The thread panel's "ops" strip (issue #13), declared apart from the transcript protocol: what the watchdog
 * says and offers, who writes the thread when this window only follows it, and the handoff and fork links. The host sends
 * one `OpsView` whenever any of it changes; the webview answers with `OpsAction`s (checked like every message).
 */
import { fields, str } from "../../shared/guards";

export const RETRY_STEPS = ["cancel", "continue", "restart"] as const;

export interface OpsLink {
  /**
   * `to`: this thread was handed off to it; `from`: this thread continues it; `forkedFrom`: this thread is a fork
   * of it (after message `at`); `fork`: it was forked from this thread.
   */
  relation: "to" | "from" | "forkedFrom" | "fork";
  threadId: string;
  /** `forkedFrom`: the source's message (numbered as `threads show` numbers them) the fork was made after. */
  at?: number;
  title: string;
  agent: string;
}

export interface OpsView {
  /** The watchdog's alert, if any. */
  alert: { kind: string; message: string; detail?: string; at: number } | null;
  /** The rung the retry ladder would take now; the one running; whether it is exhausted. */
  next: (typeof RETRY_STEPS)[number] | null;
  running: (typeof RETRY_STEPS)[number] | null;
  exhausted: boolean;
  /** Rungs taken since the last healthy turn. */
  history: { step: string; outcome: string }[];
  auto: boolean;
  /** Another process writes this thread (this panel follows it read-only). */
  holder: { label: string; pid: number; since: string; host: string | null } | null;
  /** Nobody writes it any more: this window may take it over. */
  canTakeOver: boolean;
  links: OpsLink[];
  /** The thread can be handed off / bundled (a stored thread exists). */
  stored: boolean;
  /** A session of it runs in this window, or a thread host runs it: it can be stopped (Stop session). */
  live: boolean;
}

export type OpsAction =
  | { type: "ops"; action: "retry"; step?: (typeof RETRY_STEPS)[number] }
  | { type: "ops"; action: "dismiss" | "takeOver" | "handoff" | "saveBundle" | "exportMarkdown" | "stop" }
  | { type: "ops"; action: "openThread"; threadId: string };

export function parseOpsAction(raw: unknown): OpsAction | undefined {
  const m = fields(raw);
  if (m?.type !== "ops") return undefined;
  switch (m.action) {
    case "retry":
      if (m.step === undefined) return { type: "ops", action: "retry" };
      return (RETRY_STEPS as readonly unknown[]).includes(m.step)
        ? { type: "ops", action: "retry", step: m.step as (typeof RETRY_STEPS)[number] }
        : undefined;
    case "dismiss":
    case "takeOver":
    case "handoff":
    case "saveBundle":
    case "exportMarkdown":
    case "stop":
      return { type: "ops", action: m.action };
    case "openThread":
      return str(m.threadId, 200) ? { type: "ops", action: "openThread", threadId: m.threadId } : undefined;
    default:
      return undefined;
  }
}
