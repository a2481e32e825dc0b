/**
 * The row above a new thread's prompt box: the agent picker, the workspace folder, the command line of a custom
 * run, the "in a new worktree", "sandboxed" and "best of N" boxes and the permission setting's words. It says
 * what a draft's send carries besides the prompt.
 */
import { AgentPicker } from "./agent-picker";
import { draftToggle, shownFolder } from "./draft-controls";
import { CUSTOM_EXEC_ID, type AgentOption, type ComposerMessage, type ComposerState } from "./protocol";

type Draft = NonNullable<ComposerState["draft"]>;
type SendFields = Omit<Extract<ComposerMessage, { type: "send" }>, "type" | "parts" | "rewind">;

export interface DraftBarEvents {
  /** An agent was picked in the picker. */
  picked(agentId: string): void;
  /** A folder was picked in the folder picker (multi-root): the header follows it. */
  folder(folder: string): void;
  addAgent(): void;
  agentActions(agentId: string): void;
  /** Enter in the command line field. */
  submit(): void;
  /** What the send button says may have changed (an agent picked, "best of N" ticked). */
  changed(): void;
}

export class DraftBar {
  readonly el: HTMLDivElement;
  readonly #picker: AgentPicker;
  readonly #folderEl: HTMLSelectElement;
  readonly #commandEl: HTMLInputElement;
  readonly #worktreeEl: HTMLInputElement;
  /** "sandboxed" (#34): follows the settings (and the worktree and best of N boxes) until the user clicks it. */
  readonly #sandboxEl: HTMLInputElement;
  /** "best of N" (#37): the prompt becomes the task of a Best of N; checked in the panel "Best of N…" opens. */
  readonly #bestOfEl: HTMLInputElement;
  readonly #policyEl: HTMLSpanElement;
  #sandbox: Draft["sandbox"];

  constructor(root: HTMLElement, on: DraftBarEvents) {
    this.el = document.createElement("div");
    this.el.className = "cmp-draft";
    this.el.hidden = true;
    root.appendChild(this.el);
    this.#picker = new AgentPicker(
      this.el,
      (a) => {
        on.picked(a.id);
        on.changed();
      },
      () => on.addAgent(),
      (a) => on.agentActions(a.id),
    );
    this.#folderEl = document.createElement("select");
    this.#folderEl.title = "Workspace folder the agent works in";
    this.#folderEl.setAttribute("aria-label", "Workspace folder");
    this.#folderEl.addEventListener("change", () => {
      this.#folderEl.dataset.picked = "1";
      on.folder(this.#folderEl.value);
    });
    this.el.appendChild(this.#folderEl);
    this.#commandEl = document.createElement("input");
    this.#commandEl.className = "cmp-command";
    this.#commandEl.id = "exec-command";
    this.#commandEl.placeholder = "Command line to run, e.g. npm test";
    this.#commandEl.setAttribute("aria-label", "Command line to run in a terminal");
    this.#commandEl.hidden = true;
    this.#commandEl.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        on.submit();
      }
    });
    this.el.appendChild(this.#commandEl);
    // "in a new worktree" (#25): the draft's session or run works in a git worktree of its own
    this.#worktreeEl = draftToggle(this.el, {
      id: "draft-worktree",
      className: "cmp-worktree",
      text: "in a new worktree",
      title: "Work in a new git worktree beside the repository; bring the changes home with Apply to workspace",
    });
    // "sandboxed" (#34): the draft's agent or run and all it starts run in the OS sandbox; follows the settings
    this.#sandboxEl = draftToggle(this.el, {
      id: "draft-sandbox",
      className: "cmp-worktree cmp-sandbox",
      text: "sandboxed",
      title:
        "Run in the OS sandbox: writes only in the workspace (or worktree), the temp folder and the agent's own state; " +
        "secrets (~/.ssh, ~/.aws, …) unreadable (acpThreads.sandbox.mode)",
      touched: true,
    });
    this.#bestOfEl = draftToggle(this.el, {
      id: "draft-bestof",
      className: "cmp-worktree cmp-bestof",
      text: "best of N",
      title:
        "Give this prompt to several agents (or several runs of one), each in a worktree of its own, and compare them",
    });
    for (const el of [this.#worktreeEl, this.#bestOfEl]) el.addEventListener("change", () => this.#syncSandbox());
    this.#bestOfEl.addEventListener("change", () => on.changed());
    this.#policyEl = document.createElement("span");
    this.#policyEl.className = "cmp-policy muted";
    this.#policyEl.id = "draft-policy";
    this.#policyEl.title = "The permission setting, acpThreads.permissionMode (Settings)";
    this.el.appendChild(this.#policyEl);
  }

  /** A draft's state from the host; `fresh`: the panel just became a draft ("best of N" starts as it says). */
  set(draft: Draft, fresh: boolean): void {
    if (fresh) this.#bestOfEl.checked = !!draft.bestOf;
    this.#picker.set(draft.agents, draft.agentId);
    this.el.dataset.checked = String(!!draft.checked);
    this.#policyEl.textContent = draft.policy ? `Permissions: ${draft.policy}` : "";
    this.#sandbox = draft.sandbox;
    this.#syncSandbox();
    this.#folderEl.hidden = draft.folders.length < 2;
    // the person's pick stays when the state comes again (it came back as the first folder: #35)
    const shown = shownFolder(
      draft.folders,
      draft.folder,
      this.#folderEl.dataset.picked ? this.#folderEl.value : undefined,
    );
    this.#folderEl.textContent = "";
    for (const f of draft.folders) this.#folderEl.add(new Option(f.split(/[\\/]/).pop() || f, f, false, f === shown));
  }

  get selected(): AgentOption | undefined {
    return this.#picker.selected;
  }

  get bestOf(): boolean {
    return this.#bestOfEl.checked;
  }

  /** The custom command line run is picked (its command line comes from its own field). */
  get custom(): boolean {
    return !this.bestOf && this.selected?.id === CUSTOM_EXEC_ID;
  }

  get command(): string {
    return this.#commandEl.value.trim();
  }

  showCommand(shown: boolean): void {
    this.#commandEl.hidden = !shown;
  }

  focusCommand(): void {
    this.#commandEl.focus();
  }

  clearCommand(): void {
    this.#commandEl.value = "";
  }

  /** What the draft's send carries besides its prompt. */
  fields(draft: Draft, mode: "session" | "run"): SendFields {
    const agent = this.selected;
    return {
      ...(agent ? { agentId: agent.id } : {}),
      folder: this.#folderEl.value || draft.folder,
      mode,
      ...(this.bestOf ? { bestOf: true as const } : {}),
      ...(this.custom ? { command: this.command } : {}),
      ...(this.#worktreeEl.checked ? { worktree: true } : {}),
      ...(this.#sandboxEl.dataset.touched ? { sandbox: this.#sandboxEl.checked } : {}),
    };
  }

  /** The "sandboxed" box shows what the settings decide for the draft, until the user chooses. */
  #syncSandbox(): void {
    const s = this.#sandbox;
    if (!s || this.#sandboxEl.dataset.touched) return;
    this.#sandboxEl.checked = s.on || (s.unattended && (this.#worktreeEl.checked || this.bestOf));
  }
}
