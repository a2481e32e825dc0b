/**
 * A turn of a thread this window started (or continued) in the thread host that ends while its panel is hidden is
 * told as a window session's is (hub-spawn.ts): a notification naming the agent and the prompt it answered, with
 * Open; a run the host ended with an error, a warning with the error. From the host's events (hosted-events.ts);
 * the prompt and the agent from the thread's records, read asynchronously.
 */
import type * as vscode from "vscode";
import type { HostEvent } from "../../core/host/protocol";
import type { ThreadRead } from "../../core/store/thread-store";
import { background } from "../../core/util/unexpected";
import { turnFinishedNotice, type Notifier } from "../notifier";

export interface HostedTurnNotifyDeps {
  onEvent: vscode.Event<HostEvent>;
  /** A thread this window started or continued in the host (its turns are this window's to tell). */
  startedHere(threadId: string): boolean;
  isVisible(threadId: string): boolean;
  read(threadId: string): Promise<ThreadRead | undefined>;
  notifier: Pick<Notifier, "show">;
  open(threadId: string): void;
}

export function notifyHostedTurns(deps: HostedTurnNotifyDeps): vscode.Disposable {
  return deps.onEvent((e) => {
    if (e.kind === "turn_ended") background(tell(deps, e.threadId), "notifying a finished hosted turn");
    else if (e.kind === "ended" && e.error)
      background(tell(deps, e.threadId, e.error), "notifying a failed hosted run");
  });
}

async function tell(deps: HostedTurnNotifyDeps, threadId: string, failure?: string): Promise<void> {
  if (!deps.startedHere(threadId) || deps.isVisible(threadId)) return;
  const read = await deps.read(threadId);
  const prompt = read?.records.findLast((r) => r.kind === "user_message" && !r.steered);
  if (!read || prompt?.kind !== "user_message") return;
  const n = turnFinishedNotice(read.metadata.agent.name, prompt.text, failure !== undefined, failure);
  if ((await deps.notifier.show(n.severity, n.message, ...n.items)) === "Open") deps.open(threadId);
}
