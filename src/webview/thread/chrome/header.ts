/**
 * The panel's header: the thread's title (shown only when it says more than the first prompt, which the
 * conversation already shows; renamable in place), a status pill with the elapsed time of a running turn,
 * the agent and folder, token usage, and the agent's labelled pickers (mode, model, effort, …).
 */
import { $ } from "../../shared/host";
import type { LiveStatus, LoginAction, PickerChoice, PickerView, ThreadHeader, WebviewMessage } from "../protocol";
import { clock, STATUS_TEXT, whoDecidesText } from "./words";

export class Header {
  readonly #title = $<HTMLHeadingElement>("title");
  readonly #rename = $<HTMLButtonElement>("rename");
  readonly #status = $<HTMLSpanElement>("status");
  #text = "";
  #firstPrompt: string | undefined;
  #since: number | undefined;
  #state: LiveStatus = "starting";
  #detail: string | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #canRename = false;
  /** "Agent · folder", before " · sandboxed". */
  #where = "";
  /** The agent, folder and session the header names. */
  #place: Pick<ThreadHeader, "agent" | "cwd" | "sessionId"> = { agent: "", cwd: "" };

  #loginAction: LoginAction | undefined;

  constructor(private readonly post: (m: WebviewMessage) => void) {
    this.#rename.addEventListener("click", () => this.#edit());
    $("login-action").addEventListener("click", () => {
      if (this.#loginAction) this.post({ type: "login", action: this.#loginAction });
    });
  }

  init(h: ThreadHeader, firstPrompt: string | undefined): void {
    this.#firstPrompt = firstPrompt;
    this.#canRename = true;
    this.#place = h;
    this.setFolder(h.cwd);
    this.setSandboxed(!!h.sandboxed);
    this.setTitle(h.title);
  }

  /** The folder the header names: the thread's, or a new thread's picked one (#35). */
  setFolder(cwd: string): void {
    const h = { ...this.#place, cwd };
    this.#place = h;
    const folder = cwd.split(/[\\/]/).filter(Boolean).pop() ?? cwd;
    // a new thread has no agent yet: the folder alone (the picker below names the agent)
    this.#where = h.agent ? `${h.agent} · ${folder}` : folder;
    $("agent").title = `${h.agent ? `${h.agent} in ` : ""}${cwd}${h.sessionId ? `\nsession ${h.sessionId}` : ""}`;
    this.setSandboxed($("agent").dataset.sandboxed === "true");
  }

  /** "sandboxed" after the agent and folder while the agent runs in the OS sandbox (#34). */
  setSandboxed(on: boolean): void {
    $("agent").textContent = on ? `${this.#where} · sandboxed` : this.#where;
    $("agent").dataset.sandboxed = String(on);
  }

  setFirstPrompt(text: string | undefined): void {
    if (this.#firstPrompt !== undefined || text === undefined) return;
    this.#firstPrompt = text;
    this.setTitle(this.#text);
  }

  setTitle(title: string): void {
    this.#text = title;
    this.#title.textContent = title;
    document.title = title;
    // The first prompt is already in the tab and in the conversation: the header does not repeat it.
    const same = !!this.#firstPrompt && norm(this.#firstPrompt).startsWith(norm(title).replace(/…$/, ""));
    this.#title.classList.toggle("sr-only", same);
    this.#rename.hidden = !this.#canRename;
  }

  /** The host's usage figure: the same words as the status bar (one figure per thread, issue #27). */
  setUsage(text: string): void {
    $("usage").textContent = text;
    $("usage").title = text ? "Usage as the agent reports it: cost · tokens · how full the context is" : "";
  }

  /** The agent's login state next to its name, with "Log in…" / "Log out" when the agent offers it. */
  setLogin(text: string, action: LoginAction | undefined): void {
    const label = $("login");
    label.textContent = text;
    label.title = text ? "The agent's login state, as it reports it" : "";
    label.hidden = !text;
    const button = $<HTMLButtonElement>("login-action");
    this.#loginAction = action;
    button.textContent = action === "logout" ? "Log out" : action === "login" ? "Log in…" : "";
    button.title = action === "logout" ? "Log the agent out (ACP logout)" : "Log the agent in (its auth method)";
    button.hidden = !action;
  }

  setStatus(s: LiveStatus, detail?: string, since?: number): void {
    const running = s === "working" || s === "waiting_permission";
    if (running) this.#since = since ?? this.#since ?? Date.now();
    else this.#since = undefined;
    this.#state = s;
    this.#detail = detail;
    clearInterval(this.#timer);
    this.#timer = running ? setInterval(() => this.#draw(), 1000) : undefined;
    this.#status.className = `status status-${s}`;
    this.#status.dataset.status = s;
    this.#draw();
  }

  #draw(): void {
    const elapsed = this.#since !== undefined ? ` ${clock(Date.now() - this.#since)}` : "";
    this.#status.textContent = STATUS_TEXT[this.#state] + elapsed + (this.#detail ? `: ${this.#detail}` : "");
    this.#status.title = this.#since !== undefined ? "Time since the turn started" : "";
  }

  #edit(): void {
    const input = document.createElement("input");
    input.className = "title-input";
    input.value = this.#text;
    input.setAttribute("aria-label", "Thread title");
    this.#title.hidden = true;
    this.#rename.hidden = true;
    this.#title.after(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (save: boolean) => {
      if (done) return;
      done = true;
      const v = input.value.trim();
      input.remove();
      this.#title.hidden = false;
      if (save && v && v !== this.#text) {
        this.setTitle(v);
        this.post({ type: "rename", title: v });
      } else this.setTitle(this.#text);
      this.#rename.focus();
    };
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== "Escape") return;
      e.preventDefault(); // else the key's press lands on the rename button, which just took focus
      finish(e.key === "Enter");
    });
    input.addEventListener("blur", () => finish(true));
  }

  renderPickers(p: PickerView): void {
    const box = $("pickers");
    box.textContent = "";
    const add = (
      label: string,
      options: PickerChoice[],
      current: string,
      send: (v: string) => WebviewMessage,
      about?: string,
    ) => {
      const wrap = document.createElement("label");
      wrap.className = "picker";
      const name = document.createElement("span");
      name.textContent = label;
      const sel = document.createElement("select");
      for (const o of options) {
        const opt = new Option(o.name, o.value, false, o.value === current);
        if (o.description) opt.title = o.description;
        sel.add(opt);
      }
      const describe = () => {
        const picked = options.find((o) => o.value === sel.value);
        sel.title = [about, picked?.description].filter(Boolean).join("\n");
      };
      describe();
      sel.addEventListener("change", () => {
        describe();
        this.post(send(sel.value));
      });
      wrap.append(name, sel);
      box.appendChild(wrap);
    };
    if (p.modes?.available.length)
      add(
        "Mode",
        p.modes.available.map((m) => ({ value: m.id, name: m.name, description: m.description })),
        p.modes.currentModeId,
        (v) => ({ type: "setMode", modeId: v }),
      );
    for (const c of p.configOptions ?? [])
      add(
        shortLabel(c.name),
        c.options,
        c.currentValue,
        (v) => ({ type: "setConfig", configId: c.id, value: v }),
        c.description,
      );
    this.#renderPermissions(p.permissions);
  }

  /** "Who decides what needs permission": the active mode with its description, and a warning when it approves itself. */
  #renderPermissions(w: PickerView["permissions"]): void {
    const el = $("who-decides");
    el.hidden = !w;
    el.classList.toggle("warn", !!w?.agentDecides);
    if (!w) return;
    el.textContent = whoDecidesText(w);
    el.title = "Change the mode with the Mode picker; the permission setting is acpThreads.permissionMode.";
  }
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

/** "Reasoning Effort" → "Effort": labels stay short next to each other. */
const shortLabel = (name: string) => (/reasoning effort/i.test(name) ? "Effort" : name);
