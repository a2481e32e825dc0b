/**
 * Every command the extension contributes. The command table (commands/index.ts) is typed
 * `Record<CommandId, …>`, so a missing handler does not compile, and a unit test checks this list against
 * package.json `contributes.commands`, so the manifest and the code cannot drift.
 */
export const COMMAND_IDS = [
  "acpThreads.spawn",
  "acpThreads.doctor",
  "acpThreads.showProtocolLog",
  "acpThreads.revokePermissions",
  "acpThreads.openThread",
  "acpThreads.resume",
  "acpThreads.rename",
  "acpThreads.exportSnapshot",
  "acpThreads.exportMarkdown",
  "acpThreads.importSnapshot",
  "acpThreads.delete",
  "acpThreads.copySessionId",
  "acpThreads.searchRecall",
  "acpThreads.refreshSessions",
  "acpThreads.filterSessions",
  "acpThreads.cancel",
  "acpThreads.stopSession",
  "acpThreads.showPendingPermission",
  "acpThreads.importHistory",
  "acpThreads.acceptProposed",
  "acpThreads.rejectProposed",
  "acpThreads.reviewTurn",
  "acpThreads.reviewThread",
  "acpThreads.restoreTurn",
  "acpThreads.keepTurn",
  "acpThreads.keepChange",
  "acpThreads.undoChange",
  "acpThreads.keepFileChanges",
  "acpThreads.undoFileChanges",
  "acpThreads.openTurn",
  "acpThreads.handoff",
  "acpThreads.saveBugBundle",
  "acpThreads.showUsage",
  "acpThreads.retry",
  "acpThreads.askAboutSelection",
  "acpThreads.addFileToThread",
  "acpThreads.addAgent",
  "acpThreads.updateAgent",
  "acpThreads.removeAgent",
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
