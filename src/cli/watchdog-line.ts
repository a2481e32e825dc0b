/** The watchdog's line on stderr (`run`, and `attach` for a thread the host runs): what is wrong and what is next. */
import type { SupervisorState } from "../core/model/watchdog";

/** Undefined: nothing to say (no alert, or a rung is being taken). */
export function watchdogLine(st: SupervisorState, auto: boolean): string | undefined {
  if (!st.alert || st.running) return undefined;
  const next = st.next ? `; ${auto ? "next" : "would"}: ${st.next}` : st.exhausted ? "; no retry left" : "";
  return `watchdog: ${st.alert.message}${next}`;
}
