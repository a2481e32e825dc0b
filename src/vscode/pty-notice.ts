/**
 * The one-time "no pseudo-terminal here" notice (core/platform/pty.ts): where node-pty is missing (the
 * universal VSIX) or cannot start a terminal, exec runs and agent terminals fall back to pipes; the first
 * fallback in this extension host shows why, once, and logs it.
 */
import * as vscode from "vscode";
import { onPtyFallback } from "../core/platform/pty";
import type { Hub } from "./hub";

export function watchPtyFallback(hub: Hub): vscode.Disposable {
  return onPtyFallback((notice) => {
    hub.log.logger.warn(notice.message);
    void vscode.window.showWarningMessage(notice.message);
  });
}
