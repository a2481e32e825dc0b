/**
 * "Edit and resend" sent from the prompt box (#37): the rewind (commands/rewind.ts) with the edited parts, chips
 * included. The fork's own panel sends them. When nothing was forked, the prompt goes back into this box: still
 * being edited when the rewind was cancelled, as a plain prompt after "Code only" (the conversation stays).
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { ComposerMessage, WirePart } from "../../webview/thread/protocol";
import type { ComposerPanel } from "./composer-panel";

type Rewind = NonNullable<Extract<ComposerMessage, { type: "send" }>["rewind"]>;

export async function resendEdited(
  panel: ComposerPanel,
  parts: WirePart[],
  rewind: Rewind,
  notice: (message: string) => void,
): Promise<void> {
  const again = { message: rewind.message, text: rewind.text };
  try {
    const fork = await vscode.commands.executeCommand<string | undefined>(
      "acpThreads.rewindThread",
      panel.threadId,
      rewind.message,
      rewind.text,
      { mode: rewind.mode, parts },
    );
    if (fork) return;
    panel.post({ type: "editPrompt", parts, ...(rewind.mode === "code" ? {} : { rewind: again }) });
  } catch (err) {
    panel.post({ type: "editPrompt", parts, rewind: again });
    notice(errorMessage(err));
  }
}
