/**
 * The agent picker of a new thread, inside the prompt box: agents that can start now first (configured, found
 * by doctor or installed from the ACP Registry, with their version), then agent CLIs run in a terminal, then the
 * presets that are not installed, collapsed, each with its install hint, and "Add agent…" (the registry).
 * A listbox driven by the keyboard (Up/Down, Enter, Escape) or the mouse. A "Not installed" row is an option
 * too: picking it asks the host what can be done with that agent (add, install, copy its install command, docs).
 *
 * The user's pick wins: a list the host sends later (doctor's versions arrive after ~10 s) keeps it. Nothing is
 * preselected but an ACP agent: a terminal run (above all "Custom command line") is only ever picked by hand.
 */
import { CUSTOM_EXEC_ID, type AgentOption } from "./protocol";

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The "Add agent…" row's id in the keyboard order (never an agent id: those have no spaces). */
const ADD = " add";

export class AgentPicker {
  readonly el: HTMLDivElement;
  readonly #button: HTMLButtonElement;
  readonly #menu: HTMLDivElement;
  readonly #empty: HTMLDivElement;
  #agents: AgentOption[] = [];
  #selected: string | undefined;
  /** What the user picked in this panel (kept across lists the host re-sends). */
  #userPick: string | undefined;
  #active = 0;
  #showMissing = false;

  constructor(
    parent: HTMLElement,
    private readonly onPick: (agent: AgentOption) => void,
    private readonly onAdd: () => void,
    private readonly onMissing: (agent: AgentOption) => void = () => undefined,
  ) {
    this.el = document.createElement("div");
    this.el.className = "cmp-agent";
    this.el.innerHTML =
      `<button class="cmp-agent-btn secondary" id="agent-picker" aria-haspopup="listbox" aria-expanded="false" title="Which agent runs this thread">` +
      `<span class="codicon codicon-hubot"></span><span class="cmp-agent-name">Pick an agent</span><span class="codicon codicon-chevron-down"></span></button>` +
      `<div class="cmp-agent-menu" role="listbox" aria-label="Agents" tabindex="-1" hidden></div>`;
    parent.appendChild(this.el);
    this.#empty = document.createElement("div");
    this.#empty.className = "cmp-no-agent";
    this.#empty.hidden = true;
    this.#empty.innerHTML =
      `<span class="codicon codicon-info"></span><span>No coding agent is installed.</span>` +
      `<button class="cmp-add-agent" id="add-agent">Add agent…</button>`;
    parent.appendChild(this.#empty);
    this.#empty.querySelector("button")!.addEventListener("click", () => this.onAdd());
    this.#button = this.el.querySelector("button")!;
    this.#menu = this.el.querySelector(".cmp-agent-menu")!;
    this.#button.addEventListener("click", () => this.#toggle(this.#menu.hidden));
    this.#menu.addEventListener("click", (e) => {
      const t = e.target as HTMLElement;
      if (t.closest(".cmp-missing-toggle")) {
        this.#showMissing = !this.#showMissing;
        return this.#render();
      }
      const row = t.closest<HTMLElement>("[data-agent]");
      if (row) this.#choose(row.dataset.agent!);
    });
    this.#menu.addEventListener("keydown", (e) => this.#key(e));
    document.addEventListener("mousedown", (e) => {
      if (!this.el.contains(e.target as Node)) this.#toggle(false);
    });
  }

  get selected(): AgentOption | undefined {
    return this.#agents.find((a) => a.id === this.#selected);
  }

  set(agents: AgentOption[], selected: string | undefined): void {
    this.#agents = agents;
    const ok = (id: string | undefined) => agents.some((a) => a.id === id && a.available);
    const firstAcp = agents.find((a) => a.available && a.kind === "acp");
    const preselect = selected !== CUSTOM_EXEC_ID && ok(selected) ? selected : firstAcp?.id;
    this.#selected = ok(this.#userPick) ? this.#userPick : preselect;
    this.#empty.hidden = !!firstAcp;
    this.#label();
    this.#render();
  }

  /** The keyboard order, as shown: the ACP agents that can start, "Add agent…", terminal runs, the missing. */
  #nav(): string[] {
    const ready = this.#agents.filter((a) => a.available);
    const ids = (kind: AgentOption["kind"]) => ready.filter((a) => a.kind === kind).map((a) => a.id);
    const missing = this.#showMissing ? this.#agents.filter((a) => !a.available).map((a) => a.id) : [];
    return [...ids("acp"), ADD, ...ids("exec"), ...missing];
  }

  #label(): void {
    const a = this.selected;
    this.el.querySelector(".cmp-agent-name")!.textContent = a ? a.label : "Pick an agent";
    this.#button.title = a
      ? `${a.label}${a.detail ? ` (${a.detail})` : ""}: click to pick another agent`
      : "Pick the agent that runs this thread";
  }

  #toggle(open: boolean): void {
    this.#menu.hidden = !open;
    this.#button.setAttribute("aria-expanded", String(open));
    if (open) {
      this.#active = Math.max(0, this.#nav().indexOf(this.#selected ?? ADD));
      this.#render();
      this.#menu.focus();
    }
  }

  #choose(id: string): void {
    this.#toggle(false);
    if (id === ADD) return this.onAdd();
    const a = this.#agents.find((x) => x.id === id);
    if (a && !a.available) return this.onMissing(a);
    if (!a) return;
    this.#selected = id;
    this.#userPick = id;
    this.#label();
    this.#button.focus();
    this.onPick(a);
  }

  #key(e: KeyboardEvent): void {
    const nav = this.#nav();
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      this.#active = (this.#active + (e.key === "ArrowDown" ? 1 : nav.length - 1)) % nav.length;
      this.#render();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      const id = nav[this.#active];
      if (id) this.#choose(id);
    } else if (e.key === "Escape") {
      e.preventDefault();
      this.#toggle(false);
      this.#button.focus();
    }
  }

  #render(): void {
    const nav = this.#nav();
    const row = (a: AgentOption) => {
      const i = nav.indexOf(a.id);
      const icon = a.kind === "exec" ? "terminal" : a.id === this.#selected ? "check" : "blank";
      const detail = [a.detail, a.update ? `update available: ${a.update}` : ""].filter(Boolean).join(" · ");
      return (
        `<div class="cmp-item${i === this.#active ? " active" : ""}" role="option" id="agent-opt-${i}" aria-selected="${a.id === this.#selected}" data-agent="${esc(a.id)}">` +
        `<span class="codicon codicon-${icon}"></span>` +
        `<span class="cmp-label">${esc(a.label)}</span>${detail ? `<span class="cmp-detail">${esc(detail)}</span>` : ""}</div>`
      );
    };
    const ready = this.#agents.filter((a) => a.available);
    const acp = ready.filter((a) => a.kind === "acp");
    const exec = ready.filter((a) => a.kind === "exec");
    const missing = this.#agents.filter((a) => !a.available);
    const html: string[] = [];
    if (acp.length) html.push(`<div class="cmp-group" role="presentation">Agents</div>`, ...acp.map(row));
    else html.push(`<div class="cmp-group" role="presentation">No agent is installed</div>`);
    const addIndex = nav.indexOf(ADD);
    html.push(
      `<div class="cmp-item${addIndex === this.#active ? " active" : ""}" role="option" id="agent-opt-${addIndex}" aria-selected="false" data-agent="${ADD}">` +
        `<span class="codicon codicon-add"></span><span class="cmp-label">Add agent…</span><span class="cmp-detail">from the ACP Registry</span></div>`,
    );
    if (exec.length)
      html.push(`<div class="cmp-group" role="presentation">Agent CLI in a terminal (one run)</div>`, ...exec.map(row));
    if (missing.length) {
      html.push(
        `<button class="cmp-missing-toggle link" aria-expanded="${this.#showMissing}"><span class="codicon codicon-chevron-${this.#showMissing ? "down" : "right"}"></span>Not installed (${missing.length})</button>`,
      );
      if (this.#showMissing)
        html.push(
          ...missing.map(
            (a) =>
              `<div class="cmp-missing cmp-item${nav.indexOf(a.id) === this.#active ? " active" : ""}" role="option" id="agent-opt-${nav.indexOf(a.id)}" aria-selected="false" data-agent="${esc(a.id)}" title="What can be done with ${esc(a.label)}: add, install, docs">` +
              `<span class="codicon codicon-cloud-download"></span><span class="cmp-label">${esc(a.label)}</span><span class="cmp-detail">${esc(a.hint ?? "not found")}</span></div>`,
          ),
        );
    }
    this.#menu.innerHTML = html.join("");
    this.#menu.setAttribute("aria-activedescendant", `agent-opt-${this.#active}`);
  }
}
