/**
 * The async part resolution of the prompt box's sends: a prompt's parts from the webview become prompt parts
 * (resolve.ts; a mentioned thread looked for in the store off the host's thread), and each thread's sends resolve in
 * the order they came (in-order.ts), so a later send never overtakes one that waits on the disk.
 */
import type { PromptPart } from "../../core/model/context";
import type { WirePart } from "../../webview/thread/protocol";
import { InOrder } from "./in-order";
import { resolveParts } from "./resolve";

export class SendParts {
  /** Each thread's sends, resolved in the order they came. */
  readonly #sends = new InOrder();

  constructor(private readonly threadExists: (threadId: string) => Promise<boolean>) {}

  /** A prompt's parts; the first that does not resolve throws. */
  resolve(wire: readonly WirePart[]): Promise<PromptPart[]> {
    return resolveParts(wire, this.threadExists);
  }

  /** `resolve` of a prompt sent to `threadId`, after the prompts sent to it before (they go in the order sent). */
  inOrder(threadId: string, wire: readonly WirePart[]): Promise<PromptPart[]> {
    return this.#sends.run(threadId, () => this.resolve(wire));
  }
}
