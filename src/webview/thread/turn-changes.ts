/**
 * "N files changed" under each turn of the thread panel, with Review, Keep all and Restore buttons (the host opens
 * the multi-file diff / keeps every pending change / opens the restore preview); a restored turn says so and
 * offers Undo restore instead. Rows sit between the entries: after the last entry of turn N, i.e.
 * before the user message that starts turn N + 1 (an exec thread's one run is turn 1). The host sends the whole
 * list whenever it changes. A worktree thread's apply into the workspace has its own row ("Applied to the
 * workspace"), after the row of the last turn before it; rows are keyed by ledger operation.
 */
import type { TurnChangesView } from "./protocol";
import type { Entry } from "./model";
import { escapeHtml as esc } from "../shared/escape-html";

let turns: TurnChangesView[] = [];

export function setTurnChanges(next: TurnChangesView[]): void {
  turns = next;
}

function rowHtml(t: TurnChangesView): string {
  const count = `${t.files} file${t.files === 1 ? "" : "s"}`;
  const files = t.apply ? `Applied to the workspace: ${count}` : `${count} changed`;
  const what = t.apply ? "this apply" : "this turn";
  const target = `data-op="${esc(t.op)}"`;
  const lines =
    t.added || t.removed ? ` <span class="tc-add">+${t.added}</span> <span class="tc-del">−${t.removed}</span>` : "";
  const names = t.names.map((n) => `<span class="tc-file">${esc(n)}</span>`).join(" ");
  const state = t.restoredBy
    ? ` <span class="tc-restored" title="The workspace was restored to before ${what} (or an earlier change)"><span class="codicon codicon-history"></span> restored</span> `
    : t.pending
      ? ` <span class="muted">· ${t.pending} to review</span> `
      : " ";
  const buttons = t.restoredBy
    ? `<button class="tc-review" ${target} title="What ${what} had changed">Review</button>` +
      `<button class="tc-undo-restore" data-restore="${esc(t.restoredBy)}" title="Put back what the restore took away">Undo restore</button>`
    : `<button class="tc-review" ${target}>Review</button>` +
      (t.pending
        ? `<button class="tc-keep-all" ${target} title="Keep every change of ${what} still to review">Keep all</button>`
        : "") +
      `<button class="tc-restore" ${target} title="Restore the workspace to before ${what}">Restore</button>`;
  return (
    `<span class="codicon codicon-diff"></span> <b>${files}</b>${lines}${state}${buttons}` +
    `<div class="tc-names">${names}${t.files > t.names.length ? ` <span class="muted">+${t.files - t.names.length} more</span>` : ""}</div>`
  );
}

/**
 * Index of the entry each turn ends with, turns numbered by prompts as the ledger numbers them. A user message
 * starts a turn once the previous one ended (a `done` or an error), so an agent that echoes the prompt back does
 * not count twice, and a message steered into the running turn is part of it; a turn ends just before the next
 * one starts, or with the last entry.
 */
export function turnEnds(entries: readonly (Pick<Entry, "kind"> & { steered?: boolean })[]): Map<number, number> {
  const ends = new Map<number, number>();
  let turn = 0;
  let ended = true;
  entries.forEach((e, i) => {
    if (e.kind === "user" && ended && !e.steered) {
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
  // the rows under one turn go after its last entry, in ledger order (the turn's own row, then its applies)
  let anchor: Element | null = null;
  let under: number | undefined;
  for (const t of turns) {
    if (t.turn !== under) {
      under = t.turn;
      const end = ends.get(t.turn);
      anchor = end === undefined ? null : list.querySelector<HTMLElement>(`article[data-index="${end}"]`);
    }
    if (!anchor || !t.files) continue;
    wanted.add(t.op);
    let row = Array.from(list.querySelectorAll<HTMLElement>(".turn-changes")).find((r) => r.dataset.op === t.op);
    if (!row) {
      row = document.createElement("div");
      row.className = "turn-changes";
      row.dataset.op = t.op;
    }
    row.dataset.turn = String(t.turn);
    const html = rowHtml(t);
    if (row.dataset.html !== html) {
      row.innerHTML = html;
      row.dataset.html = html;
    }
    if (anchor.nextElementSibling !== row) anchor.after(row);
    anchor = row;
  }
  list.querySelectorAll<HTMLElement>(".turn-changes").forEach((r) => wanted.has(r.dataset.op!) || r.remove());
}

type RowMessage =
  | { type: "reviewTurn" | "restoreTurn" | "keepTurn"; turn: number | { op: string } }
  | { type: "undoRestore"; op: string };

/** Review / Keep all / Restore / Undo restore clicks on the rows become host messages. */
export function wireTurnChanges(list: HTMLElement, post: (m: RowMessage) => void): void {
  list.addEventListener("click", (e) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>(".turn-changes button");
    if (!t) return;
    if (t.classList.contains("tc-undo-restore"))
      return void (t.dataset.restore && post({ type: "undoRestore", op: t.dataset.restore }));
    const op = t.dataset.op;
    if (!op) return;
    // a turn's row acts on its turn number (what the commands and the tests know); an apply's on its operation
    const turnOp = /^turn-(\d+)$/.exec(op);
    const turn = turnOp ? Number(turnOp[1]) : { op };
    const type = t.classList.contains("tc-restore")
      ? "restoreTurn"
      : t.classList.contains("tc-keep-all")
        ? "keepTurn"
        : "reviewTurn";
    post({ type, turn });
  });
}
