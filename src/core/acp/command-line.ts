/** Agent command lines as text (`--agent "node ./agent.js"`, the editor's agents sent to the thread host): no I/O. */

/**
 * The command line `splitCommandLine` reads back as exactly `words` on POSIX (a word with anything but plain
 * characters goes in single quotes; a single quote in it as '"'"'). The editor sends its agents to the thread host
 * this way (an agent configured in the editor is not one the host knows by name).
 */
export function joinCommandLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'"'"'`)}'`)).join(" ");
}

/** True when `--agent` names a command line rather than a preset/custom id (a space or a path). */
export function looksLikeCommandLine(value: string): boolean {
  return /\s/.test(value.trim()) || value.includes("/") || value.includes("\\");
}
