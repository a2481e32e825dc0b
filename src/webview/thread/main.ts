/**
 * Thread panel webview. Receives `HostMessage`s, folds events into a `ThreadModel`, and redraws only dirty
 * entries once per animation frame. Only the last WINDOW entries are in the DOM; "Show earlier" widens the
 * window, so threads with thousands of messages open fast.
 */
import { ThreadModel } from "./model";
import type { HostMessage, LiveStatus, PickerView, ThreadHeader, WebviewMessage } from "./protocol";
import { renderEntry, stripAnsi } from "./render";
import { $, bridge } from "../shared/host";

const vscode = bridge<WebviewMessage>();
const post = vscode.post;

const WINDOW = 200;
const list = $<HTMLDivElement>("entries");
const more = $<HTMLButtonElement>("more");
const statusEl = $<HTMLSpanElement>("status");
const input = $<HTMLTextAreaElement>("input");
const footer = $<HTMLDivElement>("footer");

let model = new ThreadModel();
let header: ThreadHeader | undefined;
let status: LiveStatus = "starting";
let windowStart = 0;
let scheduled = false;
const nodes = new Map<number, HTMLElement>();
const terminals = new Map<string, string>();
const TERMINAL_CAP = 64 * 1024;

const STATUS_TEXT: Record<LiveStatus, string> = {
  starting: "starting…",
  working: "working…",
  waiting_permission: "waiting for permission",
  idle: "idle",
  failed: "failed",
  closed: "finished",
  readonly: "past session (read-only)",
};

function nearBottom(): boolean {
  return window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(flush);
}

function flush(): void {
  scheduled = false;
  const stick = nearBottom();
  for (const i of [...model.dirty].sort((a, b) => a - b)) {
    if (i < windowStart) continue;
    const html = renderEntry(model.entries[i], terminals);
    let el = nodes.get(i);
    if (!el) {
      el = document.createElement("div");
      el.className = "entry";
      el.dataset.index = String(i);
      list.appendChild(el); // dirty indexes beyond the DOM are always new, appended in order
      nodes.set(i, el);
    }
    const open = el.querySelector("details")?.open;
    el.innerHTML = html;
    if (open) el.querySelector("details")?.setAttribute("open", "");
  }
  model.dirty.clear();
  more.hidden = windowStart === 0;
  more.textContent = `Show ${Math.min(WINDOW, windowStart)} earlier (${windowStart} hidden)`;
  const u = model.usage;
  $("usage").textContent = u
    ? `${u.used.toLocaleString()} / ${u.size.toLocaleString()} tokens${u.cost ? ` · ${u.cost.amount.toFixed(2)} ${u.cost.currency}` : ""}`
    : "";
  if (model.title) $("title").textContent = model.title;
  if (stick) window.scrollTo(0, document.body.scrollHeight);
  post({ type: "rendered", entries: model.entries.length, inDom: nodes.size });
}

/** Rebuilds the DOM for the current window (after init or "Show earlier"). */
function rebuild(): void {
  list.textContent = "";
  nodes.clear();
  for (let i = windowStart; i < model.entries.length; i++) model.dirty.add(i);
  schedule();
}

function setStatus(s: LiveStatus, detail?: string): void {
  status = s;
  statusEl.textContent = STATUS_TEXT[s] + (detail ? `: ${detail}` : "");
  statusEl.className = `status status-${s}`;
  const live = header?.acceptsInput && s !== "closed" && s !== "failed" && s !== "readonly";
  footer.hidden = !live;
  $<HTMLButtonElement>("send").disabled = s !== "idle";
  $<HTMLButtonElement>("cancel").hidden = !(s === "working" || s === "waiting_permission");
}

function renderPickers(p: PickerView): void {
  const box = $("pickers");
  box.textContent = "";
  const add = (
    label: string,
    options: { value: string; name: string }[],
    current: string,
    onChange: (v: string) => void,
  ) => {
    const sel = document.createElement("select");
    sel.title = label;
    for (const o of options) sel.add(new Option(o.name, o.value, false, o.value === current));
    sel.addEventListener("change", () => onChange(sel.value));
    box.appendChild(sel);
  };
  if (p.modes?.available.length) {
    add(
      "Mode",
      p.modes.available.map((m) => ({ value: m.id, name: m.name })),
      p.modes.currentModeId,
      (v) => post({ type: "setMode", modeId: v }),
    );
  }
  for (const c of p.configOptions ?? [])
    add(c.name, c.options, c.currentValue, (v) => post({ type: "setConfig", configId: c.id, value: v }));
}

function onMessage(m: HostMessage): void {
  switch (m.type) {
    case "init":
      header = m.header;
      model = new ThreadModel();
      for (const e of m.events) model.apply(e);
      $("title").textContent = model.title ?? m.header.title;
      $("agent").textContent = `${m.header.agent} · ${m.header.cwd}`;
      vscode.setState({ threadId: m.header.threadId });
      windowStart = Math.max(0, model.entries.length - WINDOW);
      if (m.focusEvent !== undefined) windowStart = Math.max(0, Math.min(windowStart, m.focusEvent - 20));
      setStatus(m.status);
      rebuild();
      if (m.scrollToEnd) requestAnimationFrame(() => window.scrollTo(0, document.body.scrollHeight));
      break;
    case "events":
      for (const e of m.events) model.apply(e);
      schedule();
      break;
    case "status":
      setStatus(m.status, m.detail);
      break;
    case "permission":
      model.addPrompt(m.prompt);
      schedule();
      break;
    case "permissionResolved":
      model.resolvePrompt(m.requestId, m.optionId);
      schedule();
      break;
    case "terminalOutput": {
      const text = ((terminals.get(m.terminalId) ?? "") + m.data).slice(-TERMINAL_CAP);
      terminals.set(m.terminalId, text);
      document.querySelectorAll<HTMLElement>(`pre.term[data-terminal="${CSS.escape(m.terminalId)}"]`).forEach((el) => {
        el.textContent = stripAnsi(text);
      });
      break;
    }
    case "pickers":
      renderPickers(m.pickers);
      break;
    case "identity":
      vscode.setState({ threadId: m.storeThreadId });
      break;
  }
}

window.addEventListener("message", (e: MessageEvent<HostMessage>) => onMessage(e.data));
more.addEventListener("click", () => {
  windowStart = Math.max(0, windowStart - WINDOW);
  rebuild();
});
list.addEventListener("click", (e) => {
  const t = (e.target as HTMLElement).closest<HTMLElement>("button, a");
  if (!t) return;
  if (t.classList.contains("perm-option"))
    post({ type: "permission", requestId: t.dataset.request!, optionId: t.dataset.option! });
  else if (t.classList.contains("perm-review")) post({ type: "review", requestId: t.dataset.request! });
  else if (t.classList.contains("loc")) {
    const line = Number(t.dataset.line);
    post({ type: "openLocation", path: t.dataset.path!, line: Number.isInteger(line) && line > 0 ? line : undefined });
  } else if (t.dataset.href) post({ type: "openLink", href: t.dataset.href });
});
function send(): void {
  const text = input.value.trim();
  if (!text || status !== "idle") return;
  post({ type: "prompt", text });
  input.value = "";
}
$("send").addEventListener("click", send);
$("cancel").addEventListener("click", () => post({ type: "cancel" }));
input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) {
    e.preventDefault();
    send();
  }
});
post({ type: "ready" });
