/** `/` completion from the agent's `available_commands_update`: prefix matches first, then substring matches. */
import type { CompletionItem } from "./protocol";

export function slashItems(
  commands: readonly { name: string; description: string; hint?: string }[],
  query: string,
): CompletionItem[] {
  const q = query.toLowerCase();
  const scored = commands
    .map((c) => {
      const name = c.name.toLowerCase();
      const rank = !q ? 1 : name.startsWith(q) ? 0 : name.includes(q) ? 1 : -1;
      return { c, rank };
    })
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.c.name.localeCompare(b.c.name));
  return scored.map(({ c }) => {
    const at = q ? c.name.toLowerCase().indexOf(q) : -1;
    return {
      group: "commands",
      label: `/${c.name}`,
      detail: [c.description, c.hint ? `(${c.hint})` : ""].filter(Boolean).join(" "),
      icon: "symbol-event",
      command: { name: c.name, ...(c.hint ? { hint: c.hint } : {}) },
      ...(at >= 0 ? { match: Array.from({ length: q.length }, (_, i) => at + 1 + i) } : {}),
    };
  });
}
