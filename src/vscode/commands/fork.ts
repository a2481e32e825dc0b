/**
 * "Fork from here" on a message of the thread panel: a new linked thread with the conversation up to that
 * message (core/handoff/fork.ts), opened in its own panel; its first prompt opens a new agent session seeded with
 * that history (Resume). The panel numbers messages as the store does; the message's text confirms the index
 * (a live panel can hold agent replays the thread never recorded).
 */
import * as vscode from "vscode";
import { AcpThreadsError, errorMessage } from "../../core/errors";
import { numberedMessages } from "../../core/handoff/fork-cut";
import { listInSource } from "../host/hosted-rename";
import type { Hub } from "../hub";
import { resumeThread } from "./threads";

/** The stored message the panel's message `n` (1-based) with `text` is. */
export function matchMessage(messages: { n: number; text: string }[], n: number, text?: string): number {
  if (text === undefined || messages[n - 1]?.text === text) return n;
  const same = messages.filter((m) => m.text === text);
  const nearest = same.sort((a, b) => Math.abs(a.n - n) - Math.abs(b.n - n))[0];
  return nearest?.n ?? n;
}

export async function forkThreadCommand(hub: Hub, threadId?: unknown, message?: unknown, text?: unknown) {
  if (typeof threadId !== "string" || typeof message !== "number")
    throw new AcpThreadsError("usage", "Fork from here needs a thread and a message");
  await hub.live.get(threadId)?.flushed(); // its last records may still be on their way to the file
  const { records } = await hub.threads.readExisting(threadId);
  const at = matchMessage(numberedMessages(records), message, typeof text === "string" ? text : undefined);
  const fork = await hub.engine.call({ op: "fork.write", sourceId: threadId, at });
  // the thread host's run of the source holds its file: the host lists the fork
  const unlinked = await listInSource(hub, threadId, { forks: [fork.threadId] }, fork.unlinked);
  hub.past.catalog.rescan();
  hub.ops.refresh(threadId); // both ops strips show the link
  hub.ops.refresh(fork.threadId);
  hub.tree.refresh();
  hub.panels.open(fork.threadId);
  const note = unlinked ? ` (the source does not list it yet: ${unlinked})` : "";
  // the fork takes a prompt at once (Resume: its first turn opens an agent session seeded with the history); a
  // fork whose agent cannot start here stays open read-only, saved, with the reason
  try {
    await resumeThread(hub, fork.threadId);
  } catch (err) {
    void vscode.window.showWarningMessage(
      `Forked at message ${at} into a new thread, which cannot continue here: ${errorMessage(err)}${note}`,
    );
    return fork.threadId;
  }
  void vscode.window.showInformationMessage(
    `Forked at message ${at} into a new thread: send a prompt to continue it${note}.`,
  );
  return fork.threadId;
}
