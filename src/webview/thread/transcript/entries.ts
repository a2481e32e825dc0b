/**
 * Entry → HTML for every entry kind except streamed text (user / agent / thought, see text-entry.ts).
 * One renderer per kind in `ENTRY_RENDERERS`: a new kind of entry is one new line here and its own file.
 */
import { escapeHtml as esc } from "../../shared/escape-html";
import { stopReasonText } from "../chrome/words";
import type { Entry } from "../model";
import { icon, type RenderContext } from "./context";
import { renderDecision } from "./permission-card";
import { renderTool } from "./tool-card";

type Kind = Entry["kind"];
type Of<K extends Kind> = Entry & { kind: K };
type BlockKind = Exclude<Kind, "user" | "agent" | "thought">;

const PLAN_ICON: Record<string, string> = { completed: "pass", in_progress: "play-circle" };

export const ENTRY_RENDERERS: { [K in BlockKind]: (e: Of<K>, ctx: RenderContext) => string } = {
  tool: renderTool,
  plan: (e) =>
    `<div class="plan" role="group" aria-label="Plan"><div class="who">${icon("checklist")} Plan</div><ul>${e.entries
      .map(
        (p) =>
          `<li class="plan-${esc(p.status)}">${icon(PLAN_ICON[p.status] ?? "circle-outline", p.status.replace("_", " "))} ${esc(p.content)}</li>`,
      )
      .join("")}</ul></div>`,
  notice: (e) =>
    `<div class="notice ${esc(e.severity)}" role="${e.severity === "error" ? "alert" : "note"}">${icon(e.severity === "error" ? "error" : e.severity === "warning" ? "warning" : "info")} <b>${esc(e.title)}</b>${e.description ? ` ${esc(e.description)}` : ""}</div>`,
  error: (e) => `<div class="notice error" role="alert">${icon("error")} ${esc(e.message)}</div>`,
  done: (e) =>
    `<div class="done muted stop-${esc(e.stopReason)}">${icon(e.stopReason === "end_turn" ? "check-all" : e.stopReason === "cancelled" ? "circle-slash" : "warning")} ${esc(stopReasonText(e.stopReason))}</div>`,
  decision: (e) => renderDecision(e.decision),
};

export const isTextEntry = (e: Entry): e is Of<"user" | "agent" | "thought"> =>
  e.kind === "user" || e.kind === "agent" || e.kind === "thought";

export function renderBlockEntry(e: Entry, ctx: RenderContext): string {
  if (isTextEntry(e)) throw new Error("text entries stream through text-entry.ts");
  return (ENTRY_RENDERERS[e.kind] as (e: Entry, ctx: RenderContext) => string)(e, ctx);
}

/** Accessible name of an entry (its `article` label in the conversation log). */
export function entryLabel(e: Entry): string {
  switch (e.kind) {
    case "user":
      return "You";
    case "agent":
      return "Agent";
    case "thought":
      return "Agent thinking";
    case "tool":
      return "Tool call";
    case "done":
      return "Turn ended";
    default:
      return e.kind[0].toUpperCase() + e.kind.slice(1);
  }
}
