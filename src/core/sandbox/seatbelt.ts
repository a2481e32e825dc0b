/**
 * The Seatbelt profile for a plan (macOS `sandbox-exec -p`): everything allowed as usual, then writes denied
 * except below the writable paths and the devices a process needs, then reads and writes of the denied paths
 * denied. Seatbelt takes the last matching rule, so the order is the policy. With allowed hosts, outgoing
 * connections to any address are denied but to the egress proxy's port on the loopback (egress-proxy.ts); local
 * (unix) sockets stay as they are. Tested as text on Linux only: it has not run on a Mac in this project's CI.
 */
import type { SandboxMounts } from "./policy";

/** A string literal for the profile (SBPL takes C-style escapes). */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(plan: SandboxMounts): string {
  const writable = plan.writable.map((p) => `  (subpath ${sbplString(p)})`);
  const denied = plan.denyRead.map(({ path, dir }) => `  (${dir ? "subpath" : "literal"} ${sbplString(path)})`);
  return [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    "(allow file-write*",
    ...writable,
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
    '  (regex #"^/dev/tty") (regex #"^/dev/fd/")',
    ")",
    ...(denied.length ? ["(deny file-read* file-write*", ...denied, ")"] : []),
    ...(plan.egress?.kind === "port"
      ? ["(deny network-outbound (remote ip))", `(allow network-outbound (remote ip "localhost:${plan.egress.port}"))`]
      : []),
    "",
  ].join("\n");
}
