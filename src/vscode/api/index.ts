/**
 * What ACP Threads gives other extensions (#35 item 4): `vscode.extensions.getExtension(ID)?.exports` (after
 * `activate()`) has `onThreadEvent`, which fires the window's thread events in the shapes `acp-threads events
 * --format json` prints: `{kind, threadId, at, ...}` with kind started | needs_input | turn_ended | usage | ended.
 * This module holds types only, so another extension can copy it (or its .d.ts) without our code.
 */
import type * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";

export type ThreadEvent = HostEvent;

export interface ThreadEventsApi {
  /** The window's thread events, as they happen (subscribe after activation; earlier ones are not replayed). */
  onThreadEvent: vscode.Event<ThreadEvent>;
}
