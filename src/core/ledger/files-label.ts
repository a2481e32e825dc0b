/** How many files an operation changed, in words (a pure helper: the CLI's `changes` and the window's views say it). */

/** "3 files changed" / "1 file changed" / "no files changed". */
export function filesChangedLabel(n: number): string {
  return n === 0 ? "no files changed" : `${n} file${n === 1 ? "" : "s"} changed`;
}
