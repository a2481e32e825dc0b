/**
 * Renders the ops strip in the panel header: the watchdog's alert with the retry ladder's next rung (and the
 * other rungs), the read-only notice when another window or process writes the thread (with Take over once it is
 * free), the handoff links; and the thread actions Hand off… / Export as Markdown… / Save bug bundle / Stop session as icon buttons in
 * the title row.
 * Plain DOM, no innerHTML.
 */
import type { OpsAction, OpsLink, OpsView } from "./protocol";

const STEP_WORDS: Record<string, string> = {
  cancel: "Cancel the turn",
  continue: 'Re-prompt "continue"',
  restart: "Restart the agent and resume",
};

const KIND_ICON: Record<string, string> = {
  stalled: "watch",
  rate_limited: "clock",
  overloaded: "cloud",
  died: "debug-disconnect",
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function icon(name: string): HTMLSpanElement {
  const s = el("span", `codicon codicon-${name}`);
  s.setAttribute("aria-hidden", "true");
  return s;
}

export class OpsBanner {
  constructor(
    private readonly root: HTMLElement,
    /** Where the thread actions (Hand off…, Save bug bundle) go: icon buttons in the title row. */
    private readonly actions: HTMLElement,
    private readonly post: (m: OpsAction) => void,
  ) {}

  render(v: OpsView): void {
    this.root.replaceChildren();
    const rows: HTMLElement[] = [];
    if (v.alert) rows.push(this.#alert(v));
    if (v.holder || v.canTakeOver) rows.push(this.#holder(v));
    if (v.links.length) rows.push(this.#links(v));
    this.root.append(...rows);
    this.root.hidden = rows.length === 0;
    this.actions.replaceChildren(
      ...(v.stored
        ? [
            this.#iconButton("Hand off to another agent…", "arrow-swap", { type: "ops", action: "handoff" }),
            this.#iconButton("Export as Markdown…", "markdown", { type: "ops", action: "exportMarkdown" }),
            this.#iconButton("Save bug bundle…", "bug", { type: "ops", action: "saveBundle" }),
          ]
        : []),
      ...(v.live
        ? [
            this.#iconButton("Stop session (stop the agent, release the thread)", "debug-disconnect", {
              type: "ops",
              action: "stop",
            }),
          ]
        : []),
    );
  }

  #iconButton(label: string, codicon: string, action: OpsAction): HTMLButtonElement {
    const b = el("button", "icon-button");
    b.type = "button";
    b.title = label;
    b.setAttribute("aria-label", label);
    b.append(icon(codicon));
    b.addEventListener("click", () => this.post(action));
    return b;
  }

  #button(label: string, action: OpsAction, opts: { primary?: boolean; codicon?: string } = {}): HTMLButtonElement {
    const b = el("button", opts.primary ? "ops-button" : "ops-button secondary");
    b.type = "button";
    if (opts.codicon) b.append(icon(opts.codicon), " ");
    b.append(label);
    b.addEventListener("click", () => this.post(action));
    return b;
  }

  #alert(v: OpsView): HTMLElement {
    const a = v.alert!;
    const row = el("div", `ops-row ops-alert ops-${a.kind}`);
    row.setAttribute("role", "alert");
    row.append(icon(KIND_ICON[a.kind] ?? "warning"), el("span", "ops-message", a.message));
    if (a.detail && a.detail !== a.message) {
      const d = el("details", "ops-detail");
      d.append(el("summary", undefined, "details"), el("pre", undefined, a.detail));
      row.append(d);
    }
    const actions = el("span", "ops-actions");
    if (v.running) actions.append(el("span", "muted", `${STEP_WORDS[v.running] ?? v.running}…`));
    else {
      if (v.next)
        actions.append(
          this.#button(STEP_WORDS[v.next]!, { type: "ops", action: "retry", step: v.next }, { primary: true }),
        );
      for (const step of ["cancel", "continue", "restart"] as const)
        if (step !== v.next && (step !== "cancel" || v.next === "cancel"))
          actions.append(this.#button(STEP_WORDS[step]!, { type: "ops", action: "retry", step }));
      if (v.exhausted) actions.append(el("span", "muted", "the retry ladder is exhausted"));
      actions.append(this.#button("Dismiss", { type: "ops", action: "dismiss" }));
    }
    row.append(actions);
    if (v.history.length)
      row.append(
        el("div", "ops-history muted", `Tried: ${v.history.map((h) => `${h.step} (${h.outcome})`).join(" → ")}`),
      );
    if (v.auto) row.append(el("div", "ops-history muted", "Retrying by itself (acpThreads.watchdog.retry = auto)."));
    return row;
  }

  #holder(v: OpsView): HTMLElement {
    const row = el("div", "ops-row ops-holder");
    row.setAttribute("role", "status");
    if (v.holder) {
      const h = v.holder;
      const where = h.host ? ` on ${h.host}` : "";
      row.append(
        icon("lock"),
        el(
          "span",
          "ops-message",
          `Read-only: ${h.label} (pid ${h.pid}${where}) is writing this thread since ${new Date(h.since).toLocaleTimeString()}. Following it live; this window takes over when it lets go.`,
        ),
      );
    } else {
      row.append(icon("unlock"), el("span", "ops-message", "Nobody else is writing this thread any more."));
      row.append(
        this.#button("Take over", { type: "ops", action: "takeOver" }, { primary: true, codicon: "debug-continue" }),
      );
    }
    return row;
  }

  #links(v: OpsView): HTMLElement {
    const row = el("div", "ops-row ops-links");
    for (const l of v.links) {
      const a = el("a", "ops-link", `${l.title} (${l.agent})`);
      a.href = "#";
      a.addEventListener("click", (e) => {
        e.preventDefault();
        this.post({ type: "ops", action: "openThread", threadId: l.threadId });
      });
      const [glyph, words] = LINK_WORDS[l.relation];
      // the fork holds the conversation through message `at` (a rewind to message N forks after N − 1, #37)
      const after = l.at === 0 ? " before its first message" : ` after message ${l.at}`;
      const at = l.relation === "forkedFrom" && l.at !== undefined ? el("span", "muted", after) : "";
      row.append(icon(glyph), el("span", "muted", words), a, at, " ");
    }
    return row;
  }
}

/** The icon and the words before the linked thread's title, per link relation. */
const LINK_WORDS: Record<OpsLink["relation"], [string, string]> = {
  to: ["arrow-right", "Handed off to "],
  from: ["arrow-left", "Continues "],
  forkedFrom: ["repo-forked", "Forked from "],
  fork: ["repo-forked", "Forked into "],
};
