/**
 * The sandbox's words for people (#34, #35 item 7): a refusal's note, the network in a few words, and doctor's line
 * for this machine's sandbox from the engine's report (`sandbox.availability`). Pure: the front ends and the engine
 * say these the same way.
 */
import type { SandboxReport } from "../model/sandbox";

/** What the user reads about one refusal: `write /x` (a refused write) or `connect host:443` (a refused host). */
export function sandboxBlockedNote(what: string): string {
  return `blocked by the sandbox: ${what}`;
}

/** The sandbox's network in a few words (stderr lines, doctor): `egress: all` or `egress: N hosts via proxy`. */
export function egressLabel(allowedHosts: readonly string[]): string {
  const n = allowedHosts.length;
  return n ? `egress: ${n} host${n === 1 ? "" : "s"} via proxy (${allowedHosts.join(", ")})` : "egress: all";
}

/**
 * One line for doctor: how the sandbox works here (its network, given the allowed hosts; with bubblewrap, what the
 * seccomp filter blocks or why there is none), or why it does not.
 */
export function describeSandbox(report: SandboxReport, allowedHosts: readonly string[] = []): string {
  if (!report.available) return report.problem;
  const tool = report.tool.kind === "bwrap" ? "bubblewrap" : "Seatbelt";
  const seccomp = report.seccomp ? `${report.seccomp}; ` : "";
  return `${tool} (${report.tool.path}): writes only in the session's roots, secrets unreadable; ${seccomp}${egressLabel(allowedHosts)}`;
}
