/**
 * The agent picker of a new thread, inside the prompt box: agents that can start now first (configured, found
 * by doctor, with their version), then agent CLIs run in a terminal, then the presets that are not installed,
 * collapsed, each with its install hint. A listbox driven by the keyboard (Up/Down, Enter, Escape) or the mouse.
 */
import type { AgentOption } from "./protocol";

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export class AgentPicker {
  readonly el: HTMLDivElement;
  readonly #button: HTMLButtonElement;
  readonly #menu: HTMLDivElement;
  #agents: AgentOption[] = [];
  #selected: string | undefined;
  #active = 0;
  #showMissing = false;

  constructor(
    parent: HTMLElement,
    private readonly onPick: (agent: AgentOption) => void,
  ) {
    this.el = document.createElement("div");
    this.el.className = "cmp-agent";
    this.el.innerHTML =
      `<button class="cmp-agent-btn secondary" id="agent-picker" aria-haspopup="listbox" aria-expanded="false" title="Which agent runs this thread">` +
      `<span class="codicon codicon-hubot"></span><span class="cmp-agent-name">Pick an agent</span><span class="codicon codicon-chevron-down"></span></button>` +
      `<div class="cmp-agent-menu" role="listbox" aria-label="Agents" tabindex="-1" hidden></div>`;
    parent.appendChild(this.el);
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
    const firstReady = agents.find((a) => a.available);
    this.#selected = agents.some((a) => a.id === selected && a.available) ? selected : firstReady?.id;
    this.#label();
    this.#render();
  }

  #ready(): AgentOption[] {
    return this.#agents.filter((a) => a.available);
  }

  #label(): void {
    const a = this.selected;
    this.el.querySelector(".cmp-agent-name")!.textContent = a ? a.label : "No agent available";
    this.#button.title = a ? `${a.label}${a.detail ? ` (${a.detail})` : ""}: click to pick another agent` : "";
  }

  #toggle(open: boolean): void {
    this.#menu.hidden = !open;
    this.#button.setAttribute("aria-expanded", String(open));
    if (open) {
      this.#active = Math.max(
        0,
        this.#ready().findIndex((a) => a.id === this.#selected),
      );
      this.#render();
      this.#menu.focus();
    }
  }

  #choose(id: string): void {
    const a = this.#agents.find((x) => x.id === id);
    if (!a?.available) return;
    this.#selected = id;
    this.#label();
    this.#toggle(false);
    this.#button.focus();
    this.onPick(a);
  }

  #key(e: KeyboardEvent): void {
    const ready = this.#ready();
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!ready.length) return;
      this.#active = (this.#active + (e.key === "ArrowDown" ? 1 : ready.length - 1)) % ready.length;
      this.#render();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      const a = ready[this.#active];
      if (a) this.#choose(a.id);
    } else if (e.key === "Escape") {
      e.preventDefault();
      this.#toggle(false);
      this.#button.focus();
    }
  }

  #render(): void {
    const ready = this.#ready();
    const row = (a: AgentOption) => {
      const i = ready.indexOf(a);
      const active = i === this.#active;
      return (
        `<div class="cmp-item${active ? " active" : ""}" role="option" id="agent-opt-${i}" aria-selected="${a.id === this.#selected}" data-agent="${esc(a.id)}">` +
        `<span class="codicon codicon-${a.kind === "exec" ? "terminal" : a.id === this.#selected ? "check" : "blank"}"></span>` +
        `<span class="cmp-label">${esc(a.label)}</span>${a.detail ? `<span class="cmp-detail">${esc(a.detail)}</span>` : ""}</div>`
      );
    };
    const acp = ready.filter((a) => a.kind === "acp");
    const exec = ready.filter((a) => a.kind === "exec");
    const missing = this.#agents.filter((a) => !a.available);
    const html: string[] = [];
    if (acp.length) html.push(`<div class="cmp-group" role="presentation">Agents</div>`, ...acp.map(row));
    if (exec.length)
      html.push(`<div class="cmp-group" role="presentation">Agent CLI in a terminal (one run)</div>`, ...exec.map(row));
    if (!ready.length) html.push(`<div class="cmp-group" role="presentation">No agent is installed</div>`);
    if (missing.length) {
      html.push(
        `<button class="cmp-missing-toggle link" aria-expanded="${this.#showMissing}"><span class="codicon codicon-chevron-${this.#showMissing ? "down" : "right"}"></span>Not installed (${missing.length})</button>`,
      );
      if (this.#showMissing)
        html.push(
          ...missing.map(
            (a) =>
              `<div class="cmp-missing" role="presentation"><span class="cmp-label">${esc(a.label)}</span><span class="cmp-detail">${esc(a.hint ?? "not found")}</span></div>`,
          ),
        );
    }
    this.#menu.innerHTML = html.join("");
    if (ready[this.#active]) this.#menu.setAttribute("aria-activedescendant", `agent-opt-${this.#active}`);
  }
}
