/**
 * The queued follow-ups above the prompt box: each with "Send now" (steer it into the running turn; disabled,
 * saying why, when the agent cannot take steering), Edit (back into the box) and Remove.
 */
import { partsText, type ComposerMessage, type QueuedPrompt } from "./protocol";

const ACTIONS = { edit: "queueTake", remove: "queueRemove", steer: "queueSteer" } as const;

export function wireQueue(el: HTMLElement, post: (m: ComposerMessage) => void): void {
  el.addEventListener("click", (e) => {
    const b = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-queue]");
    const type = b && !b.disabled ? ACTIONS[b.dataset.action as keyof typeof ACTIONS] : undefined;
    if (type) post({ type, id: b!.dataset.queue! });
  });
}

/** `steerBlocked`: why "Send now" cannot steer (null or undefined: it can). */
export function renderQueue(el: HTMLElement, queue: QueuedPrompt[], steerBlocked: string | null | undefined): void {
  el.hidden = !queue.length;
  const steerTitle = steerBlocked
    ? `${steerBlocked}.`
    : "Send now: into the running turn (the agent takes it as it works)";
  el.innerHTML =
    `<div class="cmp-group">Queued: sent when the agent finishes (${queue.length})</div>` +
    (steerBlocked ? `<div class="cmp-steer-note muted"></div>` : "") +
    queue
      .map(
        (q) =>
          `<div class="cmp-queued"><span class="codicon codicon-clock"></span><span class="cmp-queued-text"></span>` +
          `<button class="icon cmp-steer" data-queue="${q.id}" data-action="steer"${steerBlocked ? " disabled" : ""} aria-label="Send now"><span class="codicon codicon-debug-step-into"></span></button>` +
          `<button class="icon" data-queue="${q.id}" data-action="edit" title="Edit (takes it back into the box)" aria-label="Edit queued follow-up"><span class="codicon codicon-edit"></span></button>` +
          `<button class="icon" data-queue="${q.id}" data-action="remove" title="Remove from the queue" aria-label="Remove queued follow-up"><span class="codicon codicon-close"></span></button></div>`,
      )
      .join("");
  const note = el.querySelector(".cmp-steer-note");
  if (note) note.textContent = `Send now is off: ${steerBlocked}.`;
  el.querySelectorAll<HTMLElement>(".cmp-steer").forEach((b) => (b.title = steerTitle));
  el.querySelectorAll(".cmp-queued-text").forEach((t, i) => {
    t.textContent = queue[i]!.text || partsText(queue[i]!.parts);
  });
}
