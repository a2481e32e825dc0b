/**
 * The one line diff and three-way merge the ledger uses (hunks for review, undo of a hunk, provenance, patches):
 * the core's (src/core/text), re-exported so the ledger has one place to import them from.
 */
export { mergeAgentWrite } from "../text/agent-write";
export { applyEdits } from "../text/edits";
export { diffLines } from "../text/line-diff";
export { splitLines } from "../text/lines";
