/**
 * Thread panel webview: wires the host messages to the conversation (transcript/), the header (chrome/) and
 * the prompt box. Rendering lives in transcript/view.ts; this file only routes.
 */
import { ThreadModel } from "./model";
import type { HostMessage, LiveStatus, WebviewMessage } from "./protocol";
import { Header } from "./chrome/header";
import { wirePermissionShortcuts, wireTranscriptActions } from "./transcript/actions";
import { TranscriptView } from "./transcript/view";
import { $, bridge } from "../shared/host";
import { placeTurnChanges, setTurnChanges, wireTurnChanges } from "./turn-changes";
import { OpsBanner } from "./ops/banner";
import { Composer } from "./composer/composer";

const vscode = bridge<WebviewMessage>();
const post = vscode.post;
const composer = new Composer($("footer"), post);

const list = $<HTMLDivElement>("entries");
const more = $<HTMLButtonElement>("more");
const chrome = new Header(post);
const ops = new OpsBanner($<HTMLDivElement>("ops"), $<HTMLSpanElement>("thread-actions"), post);
const view = new TranscriptView(list, more, (v) => {
  chrome.setFirstPrompt(v.model.entries.find((e) => e.kind === "user")?.text);
  placeTurnChanges(list, v.model.entries);
  const texts = (selector: string) => Array.from(list.querySelectorAll(selector), (e) => e.textContent ?? "");
  const [answeredBy, answered] = [texts(".answered-by"), texts(".permission.answered")];
  post({ type: "rendered", entries: v.model.entries.length, inDom: v.inDom, answeredBy, answered });
});
wireTranscriptActions(list, view, post, (n, text, context) => composer.editMessage(n, text, context));
wireTurnChanges(list, post);
wirePermissionShortcuts(view, list);

/** Focuses the first match of `selector` once the next redraw has put it in the DOM, if the panel still has focus. */
function focusSoon(selector: string): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if (document.hasFocus()) list.querySelector<HTMLElement>(selector)?.focus();
    }),
  );
}

function setStatus(s: LiveStatus, detail?: string, since?: number): void {
  chrome.setStatus(s, detail, since);
  view.streaming = s === "working" || s === "waiting_permission" || s === "starting";
  composer.status(s);
}

function onMessage(m: HostMessage): void {
  switch (m.type) {
    case "init": {
      composer.init(m.header, m.events, m.status);
      const model = new ThreadModel();
      let focusEntry: number | undefined;
      m.events.forEach((e, i) => {
        if (i === m.focusEvent) focusEntry = model.entries.length; // the entry this event starts (a recall hit)
        model.apply(e);
      });
      if (focusEntry !== undefined) focusEntry = Math.min(focusEntry, model.entries.length - 1);
      view.ctx.cwd = m.header.cwd;
      // the header shows the host's title (the tab's): never a raw title from the events (issue #27)
      chrome.init(m.header, model.entries.find((e) => e.kind === "user")?.text);
      // a new thread's folder (picked in its panel, or where it opened) comes back with the panel after a reload
      vscode.setState({ threadId: m.header.threadId, ...(m.status === "draft" ? { draftFolder: m.header.cwd } : {}) });
      setStatus(m.status, undefined, m.since);
      view.reset(model, focusEntry);
      if (m.scrollToEnd) requestAnimationFrame(() => window.scrollTo(0, document.body.scrollHeight));
      break;
    }
    case "events":
      for (const e of m.events) view.model.apply(e);
      composer.events(m.events);
      view.schedule();
      break;
    case "status":
      setStatus(m.status, m.detail, m.since);
      if (m.sandboxed) chrome.setSandboxed(true);
      break;
    case "permission": {
      view.model.addPrompt(m.prompt);
      view.schedule();
      // Nobody is typing here: put focus on the request, so Enter / 1–9 answer it at once. Never when the focus is
      // outside this panel (the command palette, an editor): a request must not steal it, or the Enter meant for
      // the palette answers the request.
      const idleFocus = document.hasFocus() && (!document.activeElement || document.activeElement === document.body);
      if (idleFocus) focusSoon(`.permission[data-request="${CSS.escape(m.prompt.requestId)}"] .perm-option`);
      break;
    }
    case "permissionResolved":
      view.model.resolvePrompt(m.requestId, m.optionId, m.by);
      view.schedule();
      break;
    case "terminalOutput":
      view.terminal(m.terminalId, m.data, m.exit);
      break;
    case "pickers":
      chrome.renderPickers(m.pickers);
      break;
    case "title":
      chrome.setTitle(m.title);
      break;
    case "usage":
      chrome.setUsage(m.text);
      break;
    case "login":
      chrome.setLogin(m.text, m.action);
      break;
    case "turnChanges":
      setTurnChanges(m.turns);
      view.schedule();
      break;
    case "ops":
      ops.render(m.ops);
      break;
    case "draftFolder":
      view.ctx.cwd = m.cwd;
      chrome.setFolder(m.cwd);
      vscode.setState({ ...vscode.getState<object>(), draftFolder: m.cwd });
      break;
    default:
      composer.message(m);
  }
}

window.addEventListener("message", (e: MessageEvent<HostMessage>) => onMessage(e.data));
more.addEventListener("click", () => view.showEarlier());
post({ type: "ready" });
