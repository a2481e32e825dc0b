/**
 * The permission request on its tool call's card. Pending: the agent's options as buttons numbered for the
 * keyboard (1, 2, …), "Review" for a proposed edit, and for a "provide feedback" option a box whose text goes
 * to the agent; a request about paths outside the session's roots is marked "outside the workspace", naming them.
 * Answered: one line saying what was chosen (and by whom, when another client of the thread host answered). Decided without asking: what, and why (the engine's reason, with the
 * rule that decided when a rule did).
 */
import type { PermissionDecision } from "../../../core/model/events";
import { optionLabel } from "../../../core/text/option-label";
import { escapeHtml as esc } from "../../shared/escape-html";
import type { PromptState } from "../model";
import { icon, type RenderContext } from "./context";
import { relativizeText } from "./paths";

/** Options that mean "no, and here is what to do instead": they open the feedback box. */
export const wantsFeedback = (o: { name: string; kind: string }) =>
  o.kind.startsWith("reject") && /feedback|tell .*(what|how)|instead/i.test(o.name);

export function renderPermission(p: PromptState, toolTitle: string, ctx: RenderContext): string {
  const v = p.view;
  const title = relativizeText(v.title, ctx.cwd);
  if (p.answered !== undefined) {
    const chosen = v.options.find((o) => o.optionId === p.answered);
    const allowed = chosen?.kind.startsWith("allow");
    // answered: the name as the thread's record keeps it (env values and keys left out), as a reopened card shows it
    const what = chosen ? optionLabel(chosen.name) : p.by ? "No answer" : "Dismissed (the turn was cancelled)";
    const where = v.outside?.length ? ` <span class="muted">(outside the workspace)</span>` : "";
    return `<div class="permission answered" data-request="${esc(v.requestId)}">${icon(allowed ? "pass" : "circle-slash")} <span class="muted">Permission:</span> ${esc(what)}${where}${answeredBy(p.by)}</div>`;
  }
  const fb = ctx.feedback.get(v.requestId);
  const buttons = v.options
    .map((o, i) => {
      const key = i < 9 ? String(i + 1) : "";
      const cls = o.kind.startsWith("allow") ? "allow" : "reject secondary";
      return `<button type="button" class="perm-option ${cls}" data-request="${esc(v.requestId)}" data-option="${esc(o.optionId)}" data-focus-key="perm:${esc(v.requestId)}:${i}"${wantsFeedback(o) ? ' data-feedback="1"' : ""}${key ? ` aria-keyshortcuts="${key}"` : ""}>${key ? `<kbd>${key}</kbd> ` : ""}${esc(o.name)}</button>`;
    })
    .join("");
  const review = v.reviewPath
    ? `<button type="button" class="secondary perm-review" data-request="${esc(v.requestId)}" aria-keyshortcuts="R" data-focus-key="perm:${esc(v.requestId)}:review">${icon("diff")} Review <kbd>R</kbd></button>`
    : "";
  const feedback = fb
    ? `<div class="perm-feedback"><textarea rows="2" data-feedback-for="${esc(v.requestId)}" data-focus-key="perm:${esc(v.requestId)}:text" aria-label="Feedback for the agent" placeholder="Tell the agent what to do instead (sent as your next message)">${esc(fb.text)}</textarea><div class="perm-buttons"><button type="button" class="perm-feedback-send" data-request="${esc(v.requestId)}" data-focus-key="perm:${esc(v.requestId)}:send">Send feedback</button><button type="button" class="secondary perm-feedback-back" data-request="${esc(v.requestId)}">Back</button></div></div>`
    : "";
  const asks = title && title !== toolTitle ? `<div class="perm-title">${esc(title)}</div>` : "";
  const outside = v.outside?.length
    ? `<div class="perm-outside">${icon("warning")} Outside the workspace: ${v.outside.map((p) => `<code>${esc(p)}</code>`).join(", ")}</div>`
    : "";
  const label = `Permission requested${v.outside?.length ? " (outside the workspace)" : ""}: ${title || toolTitle}`;
  return `<div class="permission${v.outside?.length ? " outside" : ""}" data-request="${esc(v.requestId)}" role="group" aria-label="${esc(label)}"><div class="who">${icon("shield")} The agent asks for permission</div>${asks}${outside}<div class="perm-buttons">${buttons}${review}</div>${feedback}</div>`;
}

/**
 * A request answered without asking (policy, a remembered rule, or a cancel), or a person's answer read from the
 * thread's records, with who answered when the record names it (a name from another process: text only).
 */
export function renderDecision(d: PermissionDecision): string {
  // the name the record keeps (older records: the id); live, the name the agent offered
  const chosen = d.optionName ?? d.options.find((o) => o.optionId === d.optionId)?.name ?? d.optionId ?? "cancelled";
  const who = {
    policy: "by your permission setting",
    remembered: "by a remembered rule",
    cancelled: "turn cancelled",
    user: "by you",
  }[d.decidedBy];
  const why = d.reason ?? who;
  const rule =
    d.rule && !d.reason?.includes(d.rule)
      ? ` <span class="perm-rule muted">rule: <code>${esc(d.rule)}</code></span>`
      : "";
  return `<div class="permission answered decision">${icon("shield")} <span class="muted">Permission:</span> ${esc(chosen)} <span class="muted">(${esc(why)})</span>${rule}${answeredBy(d.answeredBy)}</div>`;
}

/** "answered by X" on an answered card, live or read from the records (X: another process's words, text only). */
const answeredBy = (by: string | undefined): string =>
  by ? ` <span class="muted answered-by">answered by ${esc(by)}</span>` : "";
