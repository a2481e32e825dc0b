/**
 * The prompt box of a thread the thread host runs (#35): a prompt goes to the host (`prompt`), which runs it after
 * the running turn, in order with the prompts other clients send (the host's own queue: a prompt held in this
 * window until the turn ended would come too late, as the host's run closes when its last turn ends). One sent
 * while a turn runs is shown queued in the box until its turn starts (its `user_message` record comes back); "Send
 * now" steers it into the running turn and takes it out of the host's queue in one request, Remove and Edit take it
 * out of the host's queue first. A prompt goes with its files, images and other context (the host reads the files,
 * from this window's buffers where it serves them); one the host refuses (a file outside the run's folders) comes
 * back into the box with the host's error. "Send now" steers a prompt with its context too, checked by the host as
 * a prompt's; one the agent cannot steer stays queued for its own turn.
 */
import type * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { refusalCode } from "../../core/host/protocol-refusal";
import type { PromptPart } from "../../core/model/context";
import type { RuntimeEvent } from "../../core/model/events";
import type { ContextSources } from "../../core/prompt/blocks";
import type { QueuedPrompt, WirePart } from "../../webview/thread/protocol";
import type { ComposerPanel } from "../composer/composer-panel";
import type { PromptQueues } from "../composer/prompt-queue";
import { sessionBoxState } from "../composer/session-box";
import { hostedPrompt } from "./host-run-spec";
import type { HostedThreadView } from "./hosted-thread-view";

const RUN_ENDING =
  "The thread host's run of this thread was ending as the message came: send it again once it has ended.";
/** How long a prompt that came as the host's run was ending waits for that end before it goes back into the box. */
const RUN_END_WAIT_MS = 30_000;

/** The box's queue of prompts this window sent to the host while a turn ran. */
export interface HostedQueue {
  queues: PromptQueues;
  postQueue(): void;
  notice(message: string, severity: "error" | "info"): void;
}

/**
 * A queued prompt's text as the thread records it (and the host's queue knows it): its mentions as `@label`, its
 * images as nothing (promptPartsText of the same prompt; the box's own `text` names the images).
 */
const recordedText = (item: QueuedPrompt): string =>
  item.parts.map((p) => (p.type === "text" ? p.text : p.type === "context" ? `@${p.ref.label}` : "")).join("");

/**
 * A prompt to the host's run of the thread: "sent", "refused" (back in the box with the host's reason), or
 * "ended": the run was ending as it came (its last turn done, or stopped), nothing was queued: the thread takes it
 * as a prompt typed after the run's end once the view has that end (false: it did not come in time).
 */
export async function sendHosted(
  view: HostedThreadView,
  panel: ComposerPanel,
  wire: WirePart[],
  parts: PromptPart[],
  q: HostedQueue,
  sources: ContextSources,
): Promise<"sent" | "refused" | "ended"> {
  // shown queued before it is sent: its turn may start (and take it off) before the host's reply comes
  const queued = view.busy || q.queues.list(view.threadId).length ? q.queues.add(view.threadId, wire) : undefined;
  if (queued) q.postQueue();
  try {
    const built = hostedPrompt(parts, sources);
    void built.catch(() => undefined); // awaited in its turn below (a failure is this send's)
    // to the host in the order typed: a prompt whose context takes longer to build (a mentioned thread read) is not
    // overtaken by a plain one sent after it
    await inOrder(view, async () => {
      const p = await built;
      await view.prompt(p.text, p.parts);
    });
    return "sent";
  } catch (err) {
    if (queued && q.queues.take(view.threadId, queued.id)) q.postQueue();
    if (refusalCode(err) && (await view.closed(RUN_END_WAIT_MS))) return "ended";
    panel.post({ type: "editPrompt", parts: wire });
    q.notice(refusalCode(err) ? RUN_ENDING : errorMessage(err), "error");
    return "refused";
  }
}

/** Each thread's last prompt on its way to the host: the next one is sent after it (sent or refused). */
const lastSend = new WeakMap<HostedThreadView, Promise<unknown>>();

function inOrder(view: HostedThreadView, send: () => Promise<void>): Promise<void> {
  const sent = (lastSend.get(view) ?? Promise.resolve()).then(send, send);
  lastSend.set(
    view,
    sent.catch(() => undefined),
  );
  return sent;
}

/** Takes queued prompts off the box as their turns start in the host; a run that ended leaves none. */
export function followHostedQueue(view: HostedThreadView, q: HostedQueue): vscode.Disposable[] {
  return [
    view.onEvents((evs) => {
      let taken = false;
      for (const e of evs) {
        if (e.type !== "user_text" || e.steered) continue;
        const item = q.queues.list(view.threadId).find((x) => recordedText(x) === e.text);
        if (item) taken = !!q.queues.take(view.threadId, item.id) || taken;
      }
      if (taken) q.postQueue();
    }),
    view.onStatus((s) => {
      if (s !== "closed" || !q.queues.list(view.threadId).length) return;
      q.queues.clear(view.threadId);
      q.postQueue();
    }),
  ];
}

/**
 * "Send now" on a queued prompt: steered into the host's running turn with its context (the host checks it as a
 * prompt's), out of its queue; else it stays queued. `parts`: the prompt box's parts of a queued prompt.
 */
export async function steerQueuedHosted(
  view: HostedThreadView,
  id: string,
  q: HostedQueue,
  parts: (item: QueuedPrompt) => Promise<PromptPart[]>,
  sources: ContextSources,
): Promise<void> {
  const item = q.queues.list(view.threadId).find((x) => x.id === id);
  if (!item) return; // its turn started, or it was removed
  if (!view.busy) return q.notice("The turn has ended: the message is sent next, from the queue.", "info");
  let outcome: string;
  try {
    const context = item.parts.some((p) => p.type !== "text");
    const wire = context ? (await hostedPrompt(await parts(item), sources)).parts : undefined;
    outcome = await view.steer(recordedText(item), true, wire);
  } catch (err) {
    return q.notice(errorMessage(err), "info"); // the agent cannot steer (or the run ended): it stays queued
  }
  if (outcome !== "injected")
    return q.notice("The turn had just ended: the message stays queued and is sent next.", "info");
  q.queues.take(view.threadId, id);
  q.postQueue();
}

/** Remove / Edit on a queued prompt: out of the host's queue first (an error once its turn started). */
export async function unqueueHosted(view: HostedThreadView, id: string, q: HostedQueue): Promise<boolean> {
  const item = q.queues.list(view.threadId).find((x) => x.id === id);
  if (!item) return false;
  try {
    await view.unqueue(recordedText(item));
    return true;
  } catch (err) {
    q.notice(errorMessage(err), "info");
    return false;
  }
}

/** What the prompt box's host side (composer-host.ts) lends its hosted branches. */
export interface HostedBoxDeps {
  queues: PromptQueues;
  /** A thread the thread host runs, followed by a panel here: its prompts go to the host (#35). */
  hosted?(threadId: string): HostedThreadView | undefined;
  /**
   * A prompt (with its context) for a stored thread no session runs: its next run starts in the thread host when
   * the thread belongs there (host/host-run.ts `continueInHost`); false: the window resumes it.
   */
  continueInHost?(threadId: string, parts: PromptPart[]): Promise<boolean>;
  /**
   * A prompt for a thread no panel here follows: into the host's run when the host holds the thread (a scripted
   * caller's prompt before the panel follows it), else as `continueInHost` (host-entry.ts `promptInHost`).
   */
  promptInHost?(threadId: string, parts: PromptPart[]): Promise<"sent" | "queued" | undefined>;
  /** The prompt box's context sources (a past thread's text for its mention). */
  sources(): ContextSources;
  /** A queued prompt's parts as a prompt (its mentions resolved), for "Send now". */
  parts(wire: readonly WirePart[]): Promise<PromptPart[]>;
  postQueue(panel: ComposerPanel): void;
  /** Thumbnails of the images in `events` (the panel's transcript). */
  postThumbs(panel: ComposerPanel, events: readonly RuntimeEvent[]): void;
}

/** The prompt box's branches for the threads the thread host runs (the window's own sessions go by the hub). */
export class HostedBox {
  constructor(private readonly d: HostedBoxDeps) {}

  /** A panel following a thread of the host: its box state and queue; undefined when the panel follows none. */
  attach(panel: ComposerPanel, past?: readonly RuntimeEvent[]): vscode.Disposable[] | undefined {
    const hosted = this.d.hosted?.(panel.threadId);
    if (!hosted) return undefined;
    if (past) this.d.postThumbs(panel, past);
    // the agent's slash commands, prompt capabilities and steering, as the host pushes the run's session state
    const postState = () => {
      const state = hosted.sessionState;
      const box = state ? sessionBoxState(state) : { draft: null };
      panel.post({ type: "composer", state: { ...box, queue: this.d.queues.list(panel.threadId) } });
    };
    postState();
    return [
      ...followHostedQueue(hosted, this.#queue(panel)),
      hosted.onSessionState(postState),
      // the thumbnails of images in prompts that come later (the box's next prompt, another client's), as a window
      // session's panel gets them from its events
      hosted.onEvents((evs) => this.d.postThumbs(panel, evs)),
    ];
  }

  /** Remove / Edit: false when the host kept the prompt (its turn started); true otherwise. */
  async unqueue(panel: ComposerPanel, id: string): Promise<boolean> {
    const hosted = this.d.hosted?.(panel.threadId);
    return !hosted || (await unqueueHosted(hosted, id, this.#queue(panel)));
  }

  /** "Send now": true when the panel follows a thread of the host (handled here). */
  async steer(panel: ComposerPanel, id: string): Promise<boolean> {
    const hosted = this.d.hosted?.(panel.threadId);
    if (hosted) await steerQueuedHosted(hosted, id, this.#queue(panel), (q) => this.d.parts(q.parts), this.d.sources());
    return !!hosted;
  }

  /**
   * A prompt typed in the box: to the host when the panel follows a thread it runs, or (`liveOpen` false: no
   * session here runs the thread) when the host holds it (the panel not following yet) or its next run belongs
   * there. True: handled here.
   */
  async send(
    panel: ComposerPanel,
    wire: WirePart[],
    parts: PromptPart[],
    liveOpen: boolean,
    restore: () => void,
    notice: (message: string) => void,
  ): Promise<boolean> {
    const hosted = this.d.hosted?.(panel.threadId);
    // one that came as the host's run was ending continues the thread as one typed after its end (below)
    if (hosted && (await sendHosted(hosted, panel, wire, parts, this.#queue(panel), this.d.sources())) !== "ended")
      return true;
    if (liveOpen) return false;
    try {
      // the run followed here ended: the thread's next run; none followed: the host's run takes it if it holds one
      if (hosted) return !!(await this.d.continueInHost?.(panel.threadId, parts));
      return !!(await this.d.promptInHost?.(panel.threadId, parts));
    } catch (err) {
      restore();
      notice(errorMessage(err));
      return true;
    }
  }

  /** The box's queue of a thread the thread host runs. */
  #queue(panel: ComposerPanel): HostedQueue {
    return {
      queues: this.d.queues,
      postQueue: () => this.d.postQueue(panel),
      notice: (message, severity) => panel.post({ type: "composerNotice", message, severity }),
    };
  }
}
