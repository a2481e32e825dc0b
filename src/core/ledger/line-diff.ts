/**
 * The one line diff and three-way merge the ledger uses (hunks for review, undo of a hunk, provenance, patches).
 * They live with the editor's merge today; #15.1 moves them into core/text — this file is the one place to
 * repoint (see PENDING_MOVES in scripts/check-imports.mjs).
 */
export { diffLines, mergeAgentWrite, applyEdits, splitLines } from "../../vscode/text-merge";
