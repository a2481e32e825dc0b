/**
 * The new-thread composer's small controls: its option checkboxes ("in a new worktree", "sandboxed", "best of N") and the
 * words on its send button for each state of the box.
 */

/** A labelled checkbox appended to `parent`; `touched` marks it once the user clicks it. */
export function draftToggle(
  parent: HTMLElement,
  o: { id: string; className: string; text: string; title: string; touched?: boolean },
): HTMLInputElement {
  const label = document.createElement("label");
  label.className = o.className;
  label.title = o.title;
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = o.id;
  if (o.touched) box.addEventListener("change", () => (box.dataset.touched = "1"));
  label.append(box, ` ${o.text}`);
  parent.appendChild(label);
  return box;
}

/**
 * The folder a multi-root draft's picker shows when the host sends the draft's state (again: the quick agent list,
 * then doctor's, then on every agents or settings change): the one the person `picked` while it is still offered, else
 * the host's (the first folder).
 */
export function shownFolder(
  folders: readonly string[],
  hostFolder: string | undefined,
  picked: string | undefined,
): string | undefined {
  return picked !== undefined && folders.includes(picked) ? picked : hostFolder;
}

export interface SendState {
  /** Editing an earlier prompt (Edit and resend). */
  editing: boolean;
  draft: boolean;
  /** The draft runs an agent CLI in a terminal. */
  exec: boolean;
  /** A turn runs: a follow-up is queued. */
  busy: boolean;
  /** A past thread: sending resumes it. */
  resumes: boolean;
  /** The draft's "best of N" box is checked (#37): sending starts the Best of N wizard's other steps. */
  bestOf?: boolean;
}

/** The send button's label and tooltip. */
export function sendWords(s: SendState): { label: string; title: string } {
  if (s.draft && s.bestOf)
    return {
      label: "Best of N…",
      title:
        "Pick the agents, runs and a check command next; each candidate gets this prompt in a worktree of its own (Enter)",
    };
  const label = s.editing
    ? "Resend"
    : s.draft
      ? s.exec
        ? "Run in terminal"
        : "Start session"
      : s.busy
        ? "Queue"
        : s.resumes
          ? "Resume"
          : "Send";
  const title = s.editing
    ? "Rewind as chosen above and send the edited prompt there (Enter)"
    : s.resumes
      ? "Resume this thread with its agent and send (Enter)"
      : s.busy
        ? "The agent is working: this follow-up is sent when the turn ends"
        : "Send (Enter)";
  return { label, title };
}
