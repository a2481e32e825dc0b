/**
 * The prompt box of a thread the thread host runs (#35): a prompt goes to the host (`prompt`), which runs it after
 * the running turn, in order with the prompts other clients send (the host's own queue: a prompt held in this
 * window until the turn ended would come too late, as the host's run closes when its last turn ends). The host
 * takes text: a prompt with files, images or other context is refused with a notice, never sent cut.
 */
import { errorMessage } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import type { WirePart } from "../../webview/thread/protocol";
import type { ComposerPanel } from "../composer/composer-panel";
import type { HostedThreadView } from "./hosted-thread-view";

const NOT_TEXT = "A thread the thread host runs takes text only for now: files, images and other context stay here.";

/** The prompt as text, or undefined when it carries more than text. */
export function hostedText(parts: readonly PromptPart[]): string | undefined {
  return parts.every((p) => p.type === "text")
    ? parts.map((p) => (p.type === "text" ? p.text : "")).join("")
    : undefined;
}

export async function sendHosted(
  view: HostedThreadView,
  panel: ComposerPanel,
  wire: WirePart[],
  parts: PromptPart[],
): Promise<void> {
  const notice = (message: string) => panel.post({ type: "composerNotice", message, severity: "error" });
  const text = hostedText(parts);
  if (text === undefined) {
    panel.post({ type: "editPrompt", parts: wire });
    return notice(NOT_TEXT);
  }
  await view.prompt(text).catch((err: unknown) => {
    panel.post({ type: "editPrompt", parts: wire });
    notice(errorMessage(err));
  });
}
