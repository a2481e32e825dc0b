/**
 * Messages between the thread panel's host side (src/vscode/thread-panel.ts) and its webview
 * (src/webview/thread/main.ts). Declared once, imported by both. Inbound webview messages are untrusted:
 * the host accepts only what `parseWebviewMessage` lets through.
 */
import type { RuntimeEvent } from "../../core/model/events";
import { fields, str } from "../shared/guards";

export const THREAD_VIEW_TYPE = "acpThreads.thread";

export type LiveStatus = "starting" | "working" | "waiting_permission" | "idle" | "failed" | "closed" | "readonly";

export interface ThreadHeader {
  threadId: string;
  title: string;
  agent: string;
  cwd: string;
  sessionId?: string;
  /** Session mode keeps the agent for follow-ups; run mode and past threads have no input box. */
  acceptsInput: boolean;
}

export interface PermissionView {
  requestId: string;
  title: string;
  kind: string;
  options: { optionId: string; name: string; kind: string }[];
  /** A proposed edit exists, so a "Review" button can open VS Code's diff editor. */
  reviewPath?: string;
}

export interface PickerView {
  modes?: { currentModeId: string; available: { id: string; name: string }[] } | null;
  configOptions?: { id: string; name: string; currentValue: string; options: { value: string; name: string }[] }[];
}

export type HostMessage =
  | {
      type: "init";
      header: ThreadHeader;
      status: LiveStatus;
      events: RuntimeEvent[];
      scrollToEnd: boolean;
      focusEvent?: number;
    }
  | { type: "events"; events: RuntimeEvent[] }
  | { type: "status"; status: LiveStatus; detail?: string }
  | { type: "permission"; prompt: PermissionView }
  | { type: "permissionResolved"; requestId: string; optionId: string | null }
  | { type: "terminalOutput"; terminalId: string; data: string }
  | { type: "pickers"; pickers: PickerView }
  /** The stored thread's id, saved in the webview state so the serializer can reopen it after a reload. */
  | { type: "identity"; storeThreadId: string };

export type WebviewMessage =
  | { type: "ready" }
  | { type: "prompt"; text: string }
  | { type: "cancel" }
  | { type: "permission"; requestId: string; optionId: string | null }
  | { type: "review"; requestId: string }
  | { type: "openLocation"; path: string; line?: number }
  | { type: "openLink"; href: string }
  | { type: "setMode"; modeId: string }
  | { type: "setConfig"; configId: string; value: string }
  /** After each redraw: how many entries the thread has and how many are in the DOM (tests, diagnostics). */
  | { type: "rendered"; entries: number; inDom: number };

/** Returns the message if it has exactly a known shape, else `undefined` (the host ignores it). */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  const m = fields(raw);
  switch (m?.type) {
    case "ready":
    case "cancel":
      return { type: m.type };
    case "prompt":
      return str(m.text) && m.text.trim() ? { type: "prompt", text: m.text } : undefined;
    case "permission":
      return str(m.requestId, 200) && (m.optionId === null || str(m.optionId, 200))
        ? { type: "permission", requestId: m.requestId, optionId: m.optionId as string | null }
        : undefined;
    case "review":
      return str(m.requestId, 200) ? { type: "review", requestId: m.requestId } : undefined;
    case "openLocation":
      if (!str(m.path, 4096)) return undefined;
      if (m.line !== undefined && !(Number.isInteger(m.line) && (m.line as number) >= 0)) return undefined;
      return { type: "openLocation", path: m.path, line: m.line as number | undefined };
    case "openLink":
      return str(m.href, 4096) && /^https?:\/\//i.test(m.href) ? { type: "openLink", href: m.href } : undefined;
    case "setMode":
      return str(m.modeId, 200) ? { type: "setMode", modeId: m.modeId } : undefined;
    case "setConfig":
      return str(m.configId, 200) && str(m.value, 1000)
        ? { type: "setConfig", configId: m.configId, value: m.value }
        : undefined;
    case "rendered":
      return Number.isInteger(m.entries) && Number.isInteger(m.inDom)
        ? { type: "rendered", entries: m.entries as number, inDom: m.inDom as number }
        : undefined;
    default:
      return undefined;
  }
}
