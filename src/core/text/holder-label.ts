/** Who writes a thread, for people: its label, its machine when not `thisHost`, since when ("acp-threads run, since …"). */
export function holderLabel(h: { label: string; host: string; since: string }, thisHost: string): string {
  const parts = [h.label || "unnamed", h.host !== thisHost ? `on ${h.host}` : "", h.since ? `since ${h.since}` : ""];
  return parts.filter(Boolean).join(", ");
}
