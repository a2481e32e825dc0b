/**
 * An agent's permission option name as the thread keeps it. A name can embed the command it allows ("Yes, and
 * don't ask again for `OPENAI_API_KEY=sk-… npm test`"), and a command can carry env values: every env assignment
 * keeps its name and loses its value (`FOO=bar cmd` → `FOO=… cmd`, wherever it stands in the name, quoted values
 * included), and key-like strings are redacted (redact.ts). Idempotent: a label read back is kept as it is.
 */
import { redactSecrets } from "../redact";

/**
 * `NAME=value` where a shell word starts (the line's start, a space, a quote or backtick, `(`, `;`, `&`, `|`): the
 * value a double-quoted string (escapes kept), a single-quoted one, or a run up to the next space, quote, backtick
 * or shell operator.
 */
const ENV_ASSIGNMENT = /(^|[\s`'"(;&|])([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"?|'[^']*'?|[^\s`'"();&|]*)/g;

/** An option's name with env values and key-like strings left out (what the thread's record keeps). */
export function optionLabel(name: string): string {
  return redactSecrets(name.replace(ENV_ASSIGNMENT, (_m, lead: string, env: string) => `${lead}${env}=…`));
}

/** A question as other tools read it (events, the editor's API): its title and options' names as labels. */
export function labelledQuestion<Q extends { title: string; options: readonly { name: string }[] }>(q: Q): Q {
  return { ...q, title: optionLabel(q.title), options: q.options.map((o) => ({ ...o, name: optionLabel(o.name) })) };
}
