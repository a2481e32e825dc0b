/**
 * Where "Export snapshot" and "Export as Markdown" start their save dialog (#37): the core's choice, which the
 * CLI's `threads export` shares (the user's Downloads folder, else their home folder; never the repository).
 */
export { defaultExportDir } from "../core/snapshot/export-dir";
