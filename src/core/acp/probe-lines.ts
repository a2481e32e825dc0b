/** A doctor probe's answer as text (core/acp/agent-probe.ts probes): no I/O, shared by both front ends. */
import { authStatusText } from "./auth-status";
import type { AgentProbe } from "./runtime";

/** A probe as a few `label  value` lines (the CLI's doctor and the editor's Doctor print the same). */
export function probeLines(probe: AgentProbe): string[] {
  if (!probe.ok) return [`probe    failed: ${probe.error ?? "unknown error"}`];
  const list = (xs: string[] | undefined) => (xs?.length ? xs.join(", ") : "none");
  const info = probe.agentInfo;
  const who = info ? `${info.title ?? info.name} ${info.version}` : "(no agentInfo)";
  const auth = (probe.authMethods ?? []).map(
    (m) => `${m.id} (${m.kind}${m.vars?.length ? `: ${m.vars.join(" ")}` : ""})`,
  );
  return [
    `agent    ${who}, ACP v${probe.protocolVersion}, initialize in ${probe.elapsedMs} ms`,
    `session  ${list([...(probe.loadSession ? ["load"] : []), ...(probe.sessionCapabilities ?? [])])}`,
    `prompt   ${list(probe.promptCapabilities)}`,
    `mcp      ${list(probe.mcpCapabilities)}`,
    `auth     ${list(auth)}`,
    ...(probe.authStatus ? [`login    ${authStatusText(probe.authStatus)}`] : []),
  ];
}
