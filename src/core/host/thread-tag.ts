/**
 * A thread the thread host ran (#35) is tagged so: the host runner adds the tag when it opens the thread (new or
 * continued, `run --detach [--thread ID]`, a window's `acpThreads.host.runSessions: host`), and the editor
 * continues a tagged thread in the host again (a prompt typed in its panel after the host's run ended), as
 * `run --detach --thread ID` does. A tag, like a named session's `session:NAME`: folded into the thread's
 * metadata from its own file, so every window and the CLI read the same answer.
 */
export const HOST_TAG = "runs:host";

export const ranInHost = (m: { tags: readonly string[] }): boolean => m.tags.includes(HOST_TAG);
