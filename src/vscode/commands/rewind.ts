/**
 * "Edit and resend" on a prompt of the thread panel (Claude Code's rewind, core/handoff/rewind.ts): edit the text,
 * then choose code and conversation (restore the files to before that prompt's turn, then fork the conversation
 * before it and send the edited prompt there), conversation only (the fork and the prompt; files untouched) or
 * code only (the restore; the conversation unchanged). The restore is the panel's "Restore workspace" (preview,
 * files edited since are overwritten only when confirmed, "Undo restore"); cancelling it forks nothing. The panel's
 * prompt box edits the prompt in place and passes its parts (chips kept, #37); the input box is for other callers.
 */
import * as vscode from "vscode";
import { AcpThreadsError } from "../../core/errors";
import type { WirePart } from "../../webview/thread/protocol";
import { numberedMessages } from "../../core/handoff/fork-cut";
import { rewindPoint, type RewindMode } from "../../core/handoff/rewind-point";
import { listInSource } from "../host/hosted-rename";
import type { Hub } from "../hub";
import { matchMessage } from "./fork";
import { resumeThread } from "./threads";

export interface RewindOptions {
  /** The edited prompt (asked when absent). */
  prompt?: string;
  /** The edited prompt as the prompt box holds it (text and chips): the fork's panel sends it. */
  parts?: WirePart[];
  /** What to rewind (asked when absent). */
  mode?: RewindMode;
  /** As the restore command's: no preview, and files edited since are refused unless `force`. */
  yes?: boolean;
  force?: boolean;
}

const CHOICES: (vscode.QuickPickItem & { mode: RewindMode })[] = [
  {
    mode: "both",
    label: "$(history) Code and conversation",
    detail: "Restore the files to before this prompt and fork the conversation here with the edited prompt",
  },
  {
    mode: "conversation",
    label: "$(comment-discussion) Conversation only",
    detail: "Fork the conversation here with the edited prompt; the files stay as they are",
  },
  {
    mode: "code",
    label: "$(file-code) Code only",
    detail: "Restore the files to before this prompt; the conversation stays as it is",
  },
];

/** Returns the fork's id (undefined for code only, or when cancelled). */
export async function rewindThreadCommand(
  hub: Hub,
  threadId?: unknown,
  message?: unknown,
  text?: unknown,
  opts: RewindOptions = {},
): Promise<string | undefined> {
  if (typeof threadId !== "string" || typeof message !== "number")
    throw new AcpThreadsError("usage", "Edit and resend needs a thread and a message");
  await hub.live.get(threadId)?.flushed(); // its last records may still be on their way to the file
  const thread = await hub.threads.readExisting(threadId);
  const n = matchMessage(numberedMessages(thread.records), message, typeof text === "string" ? text : undefined);
  const point = rewindPoint(threadId, thread, n);
  const mode =
    opts.mode ??
    (await vscode.window.showQuickPick(CHOICES, { title: `Rewind to message ${n}`, placeHolder: "What to rewind" }))
      ?.mode;
  if (!mode) return undefined;
  const prompt =
    mode === "code"
      ? undefined
      : (opts.prompt ??
        (opts.parts && wireText(opts.parts)) ??
        (await vscode.window.showInputBox({
          title: "Edit and resend",
          prompt: "The prompt the forked thread sends",
          value: point.text,
        })));
  if (mode !== "code" && prompt === undefined) return undefined;
  if (mode !== "conversation") {
    // the engine's preview: the first operation from that prompt's turn on, if it changed a file (null: none)
    const { plan } = await hub.engine.call({ op: "ledger.restore", threadId, fromTurn: point.turn, dryRun: true });
    if (!plan && mode === "code") {
      void vscode.window.showInformationMessage(`Nothing to restore: no file changed from message ${n} on.`);
      return undefined;
    }
    if (plan) {
      const op = await vscode.commands.executeCommand<string | undefined>(
        "acpThreads.restoreTurn",
        threadId,
        { op: plan.target.op },
        { yes: opts.yes, force: opts.force },
      );
      if (!op) return undefined; // cancelled: no fork either
    }
    if (mode === "code") return undefined;
  }
  const title = (await hub.threads.readExisting(threadId)).metadata.title ?? threadId;
  const fork = await hub.engine.call({
    op: "fork.write",
    sourceId: threadId,
    at: point.forkAt,
    allowEmpty: true,
    title: `${title} (rewound to message ${n})`,
  });
  const unlinked = await listInSource(hub, threadId, { forks: [fork.threadId] }, fork.unlinked);
  hub.past.catalog.rescan();
  hub.ops.refresh(threadId); // both ops strips show the link
  hub.ops.refresh(fork.threadId);
  hub.tree.refresh();
  if (opts.parts?.length) await sendInFork(hub, fork.threadId, opts.parts);
  else if (prompt?.trim()) await resumeThread(hub, fork.threadId, prompt);
  else hub.panels.open(fork.threadId);
  if (unlinked) void vscode.window.showWarningMessage(`The rewound thread does not list its fork yet: ${unlinked}`);
  return fork.threadId;
}

/** The fork's panel sends the edited parts as its prompt box would: it resumes the fork, then sends them. */
async function sendInFork(hub: Hub, threadId: string, parts: WirePart[]): Promise<void> {
  hub.panels.open(threadId);
  const panel = hub.panels.panelOf(threadId);
  if (panel) await hub.composer.handle(panel, { type: "send", parts });
}

/** The edited prompt as it reads (chips as their `@label`). */
function wireText(parts: WirePart[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : p.type === "context" ? `@${p.ref.label}` : "")).join("");
}
