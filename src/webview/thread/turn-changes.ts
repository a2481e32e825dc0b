/**
 * "N files changed" under each turn of the thread panel, with Review, Keep all and Restore buttons (the host opens
 * the multi-file diff / keeps every pending change / opens the restore preview); a restored turn says so and
 * offers Undo restore instead. Rows sit between the entries: after the last entry of turn N, i.e.
 * before the user message that starts turn N + 1 (an exec thread's one run is turn 1). The host sends the whole
 * list whenever it changes.
 */
import type { TurnChangesView } from "./protocol";
import type { Entry } from "./model";
import { escapeHtml as esc } from "../shared/escape-html";

let turns: TurnChangesView[] = [];

export function setTurnChanges(next: TurnChangesView[]): void {
  turns = next;
}

function rowHtml(t: TurnChangesView): string {
  const files = `${t.files} file${t.files === 1 ? "" : "s"} changed`;
  const lines =
    t.added || t.removed ? ` <span class="tc-add">+${t.added}</span> <span class="tc-del">−${t.removed}</span>` : "";
  const names = t.names.map((n) => `<span class="tc-file">${esc(n)}</span>`).join(" ");
  const state = t.restoredBy
    ? ` <span class="tc-restored" title="The workspace was restored to before this turn (or an earlier one)"><span class="codicon codicon-history"></span> restored</span> `
    : t.pending
      ? ` <span class="muted">· ${t.pending} to review</span> `
      : " ";
  const buttons = t.restoredBy
    ? `<button class="tc-review" data-turn="${t.turn}" title="What this turn had changed">Review</button>` +
      `<button class="tc-undo-restore" data-op="${esc(t.restoredBy)}" title="Put back what the restore took away">Undo restore</button>`
    : `<button class="tc-review" data-turn="${t.turn}">Review</button>` +
      (t.pending
        ? `<button class="tc-keep-all" data-turn="${t.turn}" title="Keep every change of this turn still to review">Keep all</button>`
        : "") +
      `<button class="tc-restore" data-turn="${t.turn}" title="Restore the workspace to before this turn">Restore</button>`;
  return (
    `<span class="codicon codicon-diff"></span> <b>${files}</b>${lines}${state}${buttons}` +
    `<div class="tc-names">${names}${t.files > t.names.length ? ` <span class="muted">+${t.files - t.names.length} more</span>` : ""}</div>`
  );
}

/**
 * Index of the entry each turn ends with. A user message starts a turn once the previous one ended (a `done` or
 * an error), so an agent that echoes the prompt back does not count twice; a turn ends just before the next
 * one starts, or with the last entry.
 */
export function turnEnds(entries: readonly Pick<Entry, "kind">[]): Map<number, number> {
  const ends = new Map<number, number>();
  let turn = 0;
  let ended = true;
  entries.forEach((e, i) => {
    if (e.kind === "user" && ended) {
      if (turn > 0) ends.set(turn, i - 1);
      turn++;
      ended = false;
    } else if (e.kind === "done" || e.kind === "error") ended = true;
  });
  if (entries.length) ends.set(Math.max(turn, 1), entries.length - 1);
  return ends;
}

/** Puts each turn's row after its last entry in the DOM (idempotent; rows of entries not in the DOM are left out). */
export function placeTurnChanges(list: HTMLElement, entries: readonly Entry[]): void {
  const ends = turnEnds(entries);
  const wanted = new Set<string>();
  for (const t of turns) {
    const end = ends.get(t.turn);
    const anchor = end === undefined ? null : list.querySelector<HTMLElement>(`article[data-index="${end}"]`);
    if (!anchor || !t.files) continue;
    wanted.add(String(t.turn));
    let row = list.querySelector<HTMLElement>(`.turn-changes[data-turn="${t.turn}"]`);
    if (!row) {
      row = document.createElement("div");
      row.className = "turn-changes";
      row.dataset.turn = String(t.turn);
    }
    const html = rowHtml(t);
    if (row.dataset.html !== html) {
      row.innerHTML = html;
      row.dataset.html = html;
    }
    if (anchor.nextElementSibling !== row) anchor.after(row);
  }
  list.querySelectorAll<HTMLElement>(".turn-changes").forEach((r) => wanted.has(r.dataset.turn!) || r.remove());
}

type RowMessage =
  { type: "reviewTurn" | "restoreTurn" | "keepTurn"; turn: number } | { type: "undoRestore"; op: string };

/** Review / Keep all / Restore / Undo restore clicks on the rows become host messages. */
export function wireTurnChanges(list: HTMLElement, post: (m: RowMessage) => void): void {
  list.addEventListener("click", (e) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>(".turn-changes button");
    if (!t) return;
    if (t.classList.contains("tc-undo-restore"))
      return void (t.dataset.op && post({ type: "undoRestore", op: t.dataset.op }));
    const turn = Number(t.dataset.turn);
    if (!Number.isInteger(turn)) return;
    const type = t.classList.contains("tc-restore")
      ? "restoreTurn"
      : t.classList.contains("tc-keep-all")
        ? "keepTurn"
        : "reviewTurn";
    post({ type, turn });
  });
}
