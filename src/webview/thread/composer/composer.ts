/**
 * The thread panel's prompt box: a multi-line box with `@` context chips (files, folders, symbols, open
 * editors, the selection, diagnostics, past threads), `/` commands from the agent, pasted or dropped images,
 * follow-ups queued while a turn runs, Up/Down history, and for a new thread the agent picker and the
 * session / run-once choice. main.ts hands it the thread's header, events and status; it talks to the host
 * with the messages in ./protocol.ts.
 */
import type { RuntimeEvent } from "../../../core/model/events";
import type { LiveStatus, ThreadHeader } from "../protocol";
import type { ContextRef } from "../../../core/model/context";
import { AgentPicker } from "./agent-picker";
import { Attachments } from "./attachments";
import { PromptBox, type CaretToken } from "./box";
import { setThumbs } from "./chips";
import { draftToggle, sendWords } from "./draft-controls";
import { EditBar } from "./edit-bar";
import { partsFromTranscript, PromptHistory } from "./history";
import { wireIntake } from "./intake";
import { SuggestPopup } from "./popup";
import {
  CUSTOM_EXEC_ID,
  type ComposerHostMessage,
  type ComposerMessage,
  type ComposerState,
  type CompletionItem,
  type WirePart,
} from "./protocol";
import { renderQueue, wireQueue } from "./queue-view";
import { slashItems } from "./slash";

const BUSY: LiveStatus[] = ["starting", "working", "waiting_permission"];
const HINT = "@ context · / commands · ↑ history";
const PLACEHOLDER = "Ask a follow-up: @ adds context, / runs a command, Shift+Enter for a new line";
const RESUME_PLACEHOLDER = "Continue this thread: sending resumes it with its agent (@ adds context)";
/** Statuses in which no session runs: the box shows only for a thread a prompt resumes. */
const STOPPED: LiveStatus[] = ["closed", "failed", "readonly"];
const DRAFT_PLACEHOLDER = "Describe the task: @ adds files, symbols, the selection, problems or past threads";
const COMMAND_PLACEHOLDER = "Optional title for this run (the command line above is what runs)";
/** The exec choice whose command line the user types in its own field (never the task text). */
const CUSTOM_EXEC = CUSTOM_EXEC_ID;

export class Composer {
  readonly #root: HTMLElement;
  readonly #box: PromptBox;
  readonly #popup: SuggestPopup;
  readonly #attachments: Attachments;
  readonly #picker: AgentPicker;
  readonly #history = new PromptHistory();
  readonly #edit: EditBar;
  readonly #queueEl: HTMLDivElement;
  readonly #noticeEl: HTMLDivElement;
  readonly #draftEl: HTMLDivElement;
  readonly #folderEl: HTMLSelectElement;
  readonly #commandEl: HTMLInputElement;
  readonly #worktreeEl: HTMLInputElement;
  /** "sandboxed" (#34): follows the settings (and the worktree box) until the user clicks it. */
  readonly #sandboxEl: HTMLInputElement;
  /** "best of N" (#37): the prompt becomes the task of a Best of N; checked in the panel "Best of N…" opens. */
  readonly #bestOfEl: HTMLInputElement;
  readonly #policyEl: HTMLSpanElement;
  readonly #send: HTMLButtonElement;
  readonly #runOnce: HTMLButtonElement;
  readonly #cancel: HTMLButtonElement;
  readonly #hint: HTMLDivElement;
  #state: ComposerState = {};
  #header: ThreadHeader | undefined;
  #status: LiveStatus = "starting";
  #seq = 0;
  #token: CaretToken | undefined;
  #commandsFromEvents: ComposerState["commands"];

  constructor(
    root: HTMLElement,
    private readonly post: (m: ComposerMessage | { type: "cancel" }) => void,
  ) {
    this.#root = root;
    root.classList.add("composer");
    root.textContent = "";
    this.#draftEl = div(root, "cmp-draft");
    this.#draftEl.hidden = true;
    this.#picker = new AgentPicker(
      this.#draftEl,
      (a) => {
        this.post({ type: "pickAgent", agentId: a.id });
        this.#noticeEl.hidden = true; // "Pick an agent first." is answered (#37)
        this.#syncButtons();
      },
      () => this.post({ type: "addAgent" }),
      (a) => this.post({ type: "agentActions", agentId: a.id }),
    );
    this.#folderEl = document.createElement("select");
    this.#folderEl.title = "Workspace folder the agent works in";
    this.#folderEl.setAttribute("aria-label", "Workspace folder");
    this.#draftEl.appendChild(this.#folderEl);
    this.#commandEl = document.createElement("input");
    this.#commandEl.className = "cmp-command";
    this.#commandEl.id = "exec-command";
    this.#commandEl.placeholder = "Command line to run, e.g. npm test";
    this.#commandEl.setAttribute("aria-label", "Command line to run in a terminal");
    this.#commandEl.hidden = true;
    this.#commandEl.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.#submit("session");
      }
    });
    this.#draftEl.appendChild(this.#commandEl);
    // "in a new worktree" (#25): the draft's session or run works in a git worktree of its own
    this.#worktreeEl = draftToggle(this.#draftEl, {
      id: "draft-worktree",
      className: "cmp-worktree",
      text: "in a new worktree",
      title: "Work in a new git worktree beside the repository; bring the changes home with Apply to workspace",
    });
    // "sandboxed" (#34): the draft's agent or run and all it starts run in the OS sandbox; follows the settings
    this.#sandboxEl = draftToggle(this.#draftEl, {
      id: "draft-sandbox",
      className: "cmp-worktree cmp-sandbox",
      text: "sandboxed",
      title:
        "Run in the OS sandbox: writes only in the workspace (or worktree), the temp folder and the agent's own state; " +
        "secrets (~/.ssh, ~/.aws, …) unreadable (acpThreads.sandbox.mode)",
      touched: true,
    });
    this.#bestOfEl = draftToggle(this.#draftEl, {
      id: "draft-bestof",
      className: "cmp-worktree cmp-bestof",
      text: "best of N",
      title:
        "Give this prompt to several agents (or several runs of one), each in a worktree of its own, and compare them",
    });
    for (const el of [this.#worktreeEl, this.#bestOfEl]) el.addEventListener("change", () => this.#syncSandbox());
    this.#bestOfEl.addEventListener("change", () => this.#syncButtons());
    this.#policyEl = document.createElement("span");
    this.#policyEl.className = "cmp-policy muted";
    this.#policyEl.id = "draft-policy";
    this.#policyEl.title = "The permission setting, acpThreads.permissionMode (Settings)";
    this.#draftEl.appendChild(this.#policyEl);
    this.#queueEl = div(root, "cmp-queue");
    this.#queueEl.setAttribute("aria-label", "Queued follow-ups");
    this.#queueEl.hidden = true;
    const frame = div(root, "cmp-frame");
    this.#edit = new EditBar(root, frame, () => this.#stopEditing());
    this.#attachments = new Attachments(frame, () => this.#syncButtons());
    this.#box = new PromptBox(frame, PLACEHOLDER);
    const bar = div(frame, "cmp-bar");
    this.#hint = div(bar, "cmp-hint muted");
    this.#hint.textContent = HINT;
    const buttons = div(bar, "cmp-buttons");
    this.#cancel = button(buttons, "cancel", "secondary", "debug-stop", "Cancel");
    this.#cancel.title = "Cancel the running turn";
    this.#runOnce = button(buttons, "run-once", "secondary", "run", "Run once");
    this.#runOnce.title = "One turn, then the agent exits";
    this.#send = button(buttons, "send", "", "send", "Send");
    this.#noticeEl = div(root, "cmp-notice");
    this.#noticeEl.setAttribute("role", "alert");
    this.#noticeEl.hidden = true;
    this.#popup = new SuggestPopup(root, this.#box.el, (item) => this.#pick(item));

    this.#send.addEventListener("click", () => this.#submit("session"));
    this.#runOnce.addEventListener("click", () => this.#submit("run"));
    this.#cancel.addEventListener("click", () => this.post({ type: "cancel" }));
    this.#box.el.addEventListener("keydown", (e) => this.#keydown(e));
    this.#box.el.addEventListener("input", () => this.#onInput());
    this.#box.el.addEventListener("blur", () => setTimeout(() => this.#popup.hide(), 150));
    wireIntake(root, this.#box.el, this.#attachments, {
      caps: () =>
        this.#state.caps
          ? { image: !!this.#state.caps.image, agentName: this.#state.agentName ?? "This agent" }
          : undefined,
      notice: (message, severity) => this.#notice(message, severity),
      post: (m) => this.post(m),
    });
    wireQueue(this.#queueEl, (m) => this.post(m));
    document.addEventListener("click", (e) => {
      const chip = (e.target as HTMLElement).closest<HTMLElement>(".context-chips .chip[data-ref]");
      if (chip) this.post({ type: "openContext", ref: JSON.parse(chip.dataset.ref!) });
    });
  }

  /** A (re)loaded thread: history from its events, fresh controls. */
  init(header: ThreadHeader, events: readonly RuntimeEvent[], status: LiveStatus): void {
    this.#header = header;
    this.#history.reset();
    this.#commandsFromEvents = undefined;
    this.events(events);
    this.status(status);
  }

  events(events: readonly RuntimeEvent[]): void {
    for (const e of events) {
      if (e.type === "user_text") this.#history.add(partsFromTranscript(e.text, e.context));
      else if (e.type === "commands")
        this.#commandsFromEvents = e.commands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.input && "hint" in c.input ? { hint: c.input.hint } : {}),
        }));
    }
  }

  status(status: LiveStatus): void {
    this.#status = status;
    const draft = !!this.#state.draft;
    const stopped = STOPPED.includes(status);
    const open = draft || (stopped ? !!this.#header?.resumable : !!this.#header?.acceptsInput);
    this.#root.hidden = !open;
    this.#syncButtons();
  }

  /** Handles the composer's host messages; returns false for any other message. */
  message(m: { type: string }): boolean {
    const msg = m as ComposerHostMessage;
    switch (msg.type) {
      case "composer":
        this.#setState(msg.state);
        return true;
      case "completions":
        if (msg.seq === this.#seq && this.#token) this.#popup.show(msg.items, !msg.done);
        return true;
      case "insertContext":
        if (msg.images?.length)
          this.#attachments.set([
            ...this.#attachments.parts(),
            ...msg.images.map((i) => ({ type: "image" as const, ...i })),
          ]);
        for (const item of msg.items) this.#box.insertChip(item.ref, item.content);
        if (msg.text) this.#box.insertText(msg.text);
        this.#box.el.focus();
        return true;
      case "editPrompt":
        if (msg.rewind) this.#edit.start(msg.rewind, []);
        this.#load(msg.parts);
        this.#syncButtons();
        return true;
      case "composerNotice":
        this.#notice(msg.message, msg.severity);
        return true;
      case "thumbs":
        setThumbs(msg.thumbs);
        return true;
      default:
        return false;
    }
  }

  /**
   * "Edit and resend" on prompt `message` (#37): its text and chips go into the box, which then sends the rewind.
   * False when the box is not offered here (a draft, a thread nothing can be sent to): the host asks instead.
   */
  editMessage(message: number, text: string, context?: readonly ContextRef[]): boolean {
    if (this.#root.hidden || this.#state.draft) return false;
    const held = this.#edit.editing ? [] : [...this.#attachments.parts(), ...this.#box.parts()];
    this.#edit.start({ message, text }, held);
    this.#load(partsFromTranscript(text, context));
    this.#syncButtons();
    this.#box.focus();
    return true;
  }

  #stopEditing(): void {
    this.#load(this.#edit.stop());
    this.#syncButtons();
    this.#box.focus();
  }

  #setState(state: ComposerState): void {
    const wasDraft = !!this.#state.draft;
    this.#state = { ...this.#state, ...state };
    const draft = this.#state.draft;
    this.#draftEl.hidden = !draft;
    if (draft) {
      if (!wasDraft) this.#bestOfEl.checked = !!draft.bestOf;
      this.#picker.set(draft.agents, draft.agentId);
      this.#draftEl.dataset.checked = String(!!draft.checked);
      this.#policyEl.textContent = draft.policy ? `Permissions: ${draft.policy}` : "";
      this.#syncSandbox();
      this.#folderEl.hidden = draft.folders.length < 2;
      this.#folderEl.textContent = "";
      for (const f of draft.folders)
        this.#folderEl.add(new Option(f.split(/[\\/]/).pop() || f, f, false, f === draft.folder));
    }
    if (state.queue || "steerBlocked" in state)
      renderQueue(this.#queueEl, this.#state.queue ?? [], this.#state.steerBlocked);
    this.status(this.#status);
    if (draft && !wasDraft) this.#box.focus();
  }

  /** The "sandboxed" box shows what the settings decide for the draft, until the user chooses. */
  #syncSandbox(): void {
    const s = this.#state.draft?.sandbox;
    if (!s || this.#sandboxEl.dataset.touched) return;
    this.#sandboxEl.checked = s.on || (s.unattended && (this.#worktreeEl.checked || this.#bestOfEl.checked));
  }

  #syncButtons(): void {
    const draft = !!this.#state.draft;
    const busy = BUSY.includes(this.#status) && !draft;
    const bestOf = draft && this.#bestOfEl.checked;
    const exec = draft && !bestOf && this.#picker.selected?.kind === "exec";
    const custom = draft && !bestOf && this.#picker.selected?.id === CUSTOM_EXEC;
    this.#commandEl.hidden = !custom;
    const resumes = !draft && STOPPED.includes(this.#status);
    this.#box.placeholder = custom
      ? COMMAND_PLACEHOLDER
      : draft
        ? DRAFT_PLACEHOLDER
        : resumes
          ? RESUME_PLACEHOLDER
          : PLACEHOLDER;
    const words = sendWords({ editing: !draft && !!this.#edit.editing, draft, exec, busy, resumes, bestOf });
    this.#send.querySelector(".label")!.textContent = words.label;
    this.#send.title = words.title;
    this.#send.disabled = draft && !bestOf && !this.#picker.selected;
    this.#runOnce.hidden = !draft || exec || bestOf;
    this.#cancel.hidden = !(this.#status === "working" || this.#status === "waiting_permission") || draft;
  }

  #submit(mode: "session" | "run"): void {
    const parts = [...this.#attachments.parts(), ...this.#box.parts()];
    const bestOf = !!this.#state.draft && this.#bestOfEl.checked;
    const custom = !!this.#state.draft && !bestOf && this.#picker.selected?.id === CUSTOM_EXEC;
    const command = this.#commandEl.value.trim();
    if (custom && !command) {
      this.#commandEl.focus();
      return this.#notice("Type the command line to run in the field next to the picker.", "error");
    }
    if (!parts.length && !custom) return;
    const images = parts.filter((p) => p.type === "image").length;
    if (images && this.#state.caps && !this.#state.caps.image) {
      return this.#notice(
        `${this.#state.agentName ?? "This agent"} does not accept images; remove ${images > 1 ? "them" : "it"} to send.`,
        "error",
      );
    }
    const draft = this.#state.draft;
    const agent = this.#picker.selected;
    if (draft && !agent && !bestOf) return this.#notice("Pick an agent first.", "error");
    const rewind = draft ? undefined : this.#edit.rewind();
    if (rewind) return this.#resend(parts, rewind);
    this.post({
      type: "send",
      parts,
      ...(draft && agent ? { agentId: agent.id } : {}),
      ...(draft ? { folder: this.#folderEl.value || draft.folder, mode } : {}),
      ...(bestOf ? { bestOf: true as const } : {}),
      ...(custom ? { command } : {}),
      ...(draft && this.#worktreeEl.checked ? { worktree: true } : {}),
      ...(draft && this.#sandboxEl.dataset.touched ? { sandbox: this.#sandboxEl.checked } : {}),
    });
    if (custom) this.#commandEl.value = "";
    this.#history.stop(); // the prompt joins the history when its user message comes back as an event
    this.#hint.textContent = HINT;
    this.#box.clear();
    this.#attachments.clear();
    this.#popup.hide();
    this.#noticeEl.hidden = true;
  }

  /** Sends the edited prompt as a rewind; the box gets back what it held before the edit. */
  #resend(parts: WirePart[], rewind: NonNullable<ReturnType<EditBar["rewind"]>>): void {
    this.post({ type: "send", parts, rewind });
    this.#box.clear();
    this.#attachments.clear();
    this.#popup.hide();
    this.#noticeEl.hidden = true;
    this.#stopEditing();
  }

  #keydown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (this.#popup.key(e)) return e.preventDefault();
    if (e.key === "Escape" && (this.#status === "working" || this.#status === "waiting_permission")) {
      e.preventDefault(); // Esc in the prompt box stops the running turn (a suggestion list took it first)
      return this.post({ type: "cancel" });
    }
    if (e.key === "Escape" && this.#edit.editing) {
      e.preventDefault();
      return this.#stopEditing();
    }
    if (e.key === "Enter" && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      return this.#submit(e.ctrlKey || e.metaKey ? "run" : "session");
    }
    if (e.key === "Enter") {
      e.preventDefault();
      return this.#box.insertText("\n");
    }
    if (e.key === "ArrowUp" && !e.shiftKey && this.#box.caretAtStart()) {
      const prev = this.#history.prev(this.#box.parts());
      if (prev) {
        e.preventDefault();
        this.#box.setParts(prev);
      }
    } else if (e.key === "ArrowDown" && !e.shiftKey && this.#history.browsing && this.#box.caretAtEnd()) {
      const next = this.#history.next();
      if (next) {
        e.preventDefault();
        this.#box.setParts(next);
      }
    }
  }

  #onInput(): void {
    this.#noticeEl.hidden = true;
    const token = this.#box.tokenAtCaret();
    this.#token = token;
    if (!token) return this.#popup.hide();
    if (token.trigger === "/") {
      const commands = this.#state.commands?.length ? this.#state.commands : this.#commandsFromEvents;
      if (!commands?.length) return this.#popup.hide();
      return this.#popup.show(slashItems(commands, token.query), false);
    }
    this.#seq++;
    this.post({ type: "complete", seq: this.#seq, trigger: "@", query: token.query });
  }

  #pick(item: CompletionItem): void {
    const token = this.#token ?? this.#box.tokenAtCaret();
    this.#popup.hide();
    this.#token = undefined;
    if (item.command && token) {
      this.#box.replaceToken(token, `/${item.command.name} `);
      // what the command expects after its name, until the prompt is sent
      if (item.command.hint) this.#hint.textContent = `/${item.command.name} ${item.command.hint}`;
    } else if (item.ref) this.#box.insertChip(item.ref, item.content, token);
    this.#box.el.focus();
  }

  #load(parts: WirePart[]): void {
    this.#attachments.set(parts);
    this.#box.setParts(parts.filter((p) => p.type !== "image"));
  }

  #notice(message: string, severity: "error" | "info"): void {
    this.#noticeEl.textContent = message;
    this.#noticeEl.className = `cmp-notice ${severity}`;
    this.#noticeEl.hidden = false;
  }
}

function div(parent: HTMLElement, cls: string): HTMLDivElement {
  const el = document.createElement("div");
  el.className = cls;
  parent.appendChild(el);
  return el;
}

function button(parent: HTMLElement, id: string, cls: string, icon: string, label: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.id = id;
  if (cls) b.className = cls;
  b.innerHTML = `<span class="codicon codicon-${icon}"></span><span class="label">${label}</span>`;
  parent.appendChild(b);
  return b;
}
