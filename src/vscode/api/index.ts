/**
 * What ACP Threads gives other extensions (#35 item 4): `vscode.extensions.getExtension(ID)?.exports` (after
 * `activate()`) has `onThreadEvent`, which fires the thread events of the window's sessions and of the threads the
 * thread host runs that this window sees (`run --detach`, another window's, `acpThreads.host.runSessions: host`),
 * in the shapes `acp-threads events --format json` prints: `{kind, threadId, at, ...}` with kind started |
 * needs_input | answered | turn_started | turn_ended | usage | ended.
 * This module holds types only, so another extension can copy it (or its .d.ts) without our code.
 */
import type * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";

export type ThreadEvent = HostEvent;

export interface ThreadEventsApi {
  /**
   * The thread events, as they happen (subscribe after activation; earlier ones are not replayed):
   *
   * - The window's sessions: `started`, `needs_input` (a permission request, its `requestId` the card's),
   *   `answered` (`by`: this window's name, "policy", "remembered rule", or "the agent (cancelled)" when the turn
   *   stopped; a request nobody was asked about carries its tool call's id as `requestId`), `turn_started`,
   *   `turn_ended` then `usage` when the agent reported any, `ended`.
   * - `needs_input` with `elicitation` (the thread host's threads): an agent's elicitation asked of the windows and
   *   terminals following the thread: `elicitation` is `{mode: "form", fields}` (the form's field names) or
   *   `{mode: "url", host}` (the web page's host, never its URL); `question` carries the agent's message as `title`
   *   and no options, so a reader of `question` keeps working. Its `answered` has `optionId: null` and `action`
   *   (accept, decline, or cancel: a person cancelled, or "the agent (cancelled)" withdrew it).
   * - `turn_ended` has stop reason `error` for a hosted turn the agent answered with an error or died in.
   * - The thread host's threads, as the host announces them (`answered.by` names the client that answered). A
   *   thread first seen running (it started before this window looked) is announced `started` then, with its
   *   pending question; its earlier turns are not replayed. Across a reconnect to the host, the turns' ends, answers
   *   and ends the connection missed are read back from the thread's records (`at`: the record's time), each once;
   *   a missed `turn_started` is not. A question's card in this window has the host's `requestId`.
   * - The threads of the window's own in-process host (its `window` mode's, under the internal hosted engine), as
   *   the window's sessions: `answered` also says `policy` or `remembered rule` for a request nobody was asked about.
   *
   * A thread is the window's or the host's at a time: each event comes once, also when a thread moves between them
   * (its run in one ends, `ended`, before its run in the other starts, `started`).
   */
  onThreadEvent: vscode.Event<ThreadEvent>;
}
