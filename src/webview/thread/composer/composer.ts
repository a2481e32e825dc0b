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
import { Attachments } from "./attachments";
import { PromptBox, type CaretToken } from "./box";
import { setThumbs } from "./chips";
import { DraftBar } from "./draft-bar";
import { sendWords } from "./draft-controls";
import { EditBar } from "./edit-bar";
import { partsFromTranscript, PromptHistory } from "./history";
import { wireIntake } from "./intake";
import { SuggestPopup } from "./popup";
import {
  type ComposerHostMessage,
  type ComposerMessage,
  type ComposerState,
  type CompletionItem,
  type WirePart,
} from "./protocol";
import { renderQueue, wireQueue } from "./queue-view";
import { slashItems } from "./slash";

const BUSY: LiveStatus[] = ["starting", "working", "waiting_permission"];
/** Statuses in which a turn runs that Cancel stops. */
const CANCELLABLE: LiveStatus[] = ["working", "waiting_permission"];
const HINT = "@ context · / commands · ↑ history";
const PLACEHOLDER = "Ask a follow-up: @ adds context, / runs a command, Shift+Enter for a new line";
const RESUME_PLACEHOLDER = "Continue this thread: sending resumes it with its agent (@ adds context)";
/** Statuses in which no session runs: the box shows only for a thread a prompt resumes. */
const STOPPED: LiveStatus[] = ["closed", "failed", "readonly"];
const DRAFT_PLACEHOLDER = "Describe the task: @ adds files, symbols, the selection, problems or past threads";
const COMMAND_PLACEHOLDER = "Optional title for this run (the command line above is what runs)";

export class Composer {
  readonly #root: HTMLElement;
  readonly #box: PromptBox;
  readonly #popup: SuggestPopup;
  readonly #attachments: Attachments;
  readonly #history = new PromptHistory();
  readonly #edit: EditBar;
  readonly #queueEl: HTMLDivElement;
  readonly #noticeEl: HTMLDivElement;
  /** A new thread's agent picker, folder and option boxes. */
  readonly #draft: DraftBar;
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
    this.#draft = new DraftBar(root, {
      picked: (agentId) => {
        this.post({ type: "pickAgent", agentId });
        this.#noticeEl.hidden = true; // "Pick an agent first." is answered (#37)
      },
      folder: (folder) => this.post({ type: "pickFolder", folder }),
      addAgent: () => this.post({ type: "addAgent" }),
      agentActions: (agentId) => this.post({ type: "agentActions", agentId }),
      submit: () => this.#submit("session"),
      changed: () => this.#syncButtons(),
    });
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
    // a turn of a session that takes no follow-ups ("Run once") can still be stopped: the footer shows Cancel alone
    const cancelOnly = !open && !!this.#header?.cancels && CANCELLABLE.includes(status);
    this.#root.hidden = !open && !cancelOnly;
    this.#root.classList.toggle("cancel-only", cancelOnly);
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
    this.#draft.el.hidden = !draft;
    if (draft) this.#draft.set(draft, !wasDraft);
    if (state.queue || "steerBlocked" in state)
      renderQueue(this.#queueEl, this.#state.queue ?? [], this.#state.steerBlocked);
    this.status(this.#status);
    if (draft && !wasDraft) this.#box.focus();
  }

  #syncButtons(): void {
    const draft = !!this.#state.draft;
    const busy = BUSY.includes(this.#status) && !draft;
    const bestOf = draft && this.#draft.bestOf;
    const exec = draft && !bestOf && this.#draft.selected?.kind === "exec";
    const custom = draft && this.#draft.custom;
    this.#draft.showCommand(custom);
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
    this.#send.disabled = draft && !bestOf && !this.#draft.selected;
    this.#runOnce.hidden = !draft || exec || bestOf;
    this.#cancel.hidden = !CANCELLABLE.includes(this.#status) || draft;
  }

  #submit(mode: "session" | "run"): void {
    const parts = [...this.#attachments.parts(), ...this.#box.parts()];
    const draft = this.#state.draft;
    const custom = !!draft && this.#draft.custom;
    if (custom && !this.#draft.command) {
      this.#draft.focusCommand();
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
    if (draft && !this.#draft.selected && !this.#draft.bestOf) return this.#notice("Pick an agent first.", "error");
    const rewind = draft ? undefined : this.#edit.rewind();
    if (rewind) return this.#resend(parts, rewind);
    this.post({ type: "send", parts, ...(draft ? this.#draft.fields(draft, mode) : {}) });
    if (custom) this.#draft.clearCommand();
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
