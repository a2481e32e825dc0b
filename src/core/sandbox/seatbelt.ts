/**
 * The Seatbelt profile for a plan (macOS `sandbox-exec -p`): everything allowed as usual, then writes denied but to
 * the devices a process needs, then one rule per path shallow to deep (policy.ts `shallowToDeep`): reads and
 * writes allowed below a writable path, both denied below a denied one, reads allowed again below a read-only one
 * (the data home's agents). Seatbelt takes the last matching rule, so the order is the policy, as bwrap's mounts. With allowed hosts, outgoing
 * connections to any address are denied but to the egress proxy's port on the loopback (egress-proxy.ts); local
 * (unix) sockets stay as they are. Tested as text on Linux only: it has not run on a Mac in this project's CI.
 */
import { shallowToDeep, type PathRule, type SandboxMounts } from "./policy";

/** A string literal for the profile (SBPL takes C-style escapes). */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(plan: SandboxMounts): string {
  const rules = shallowToDeep<PathRule & { text: string }>([
    ...plan.writable.map((path) => ({
      path,
      order: 0,
      text: `(allow file-read* file-write* (subpath ${sbplString(path)}))`,
    })),
    ...plan.denyRead.map(({ path, dir }) => ({
      path,
      order: 1,
      text: `(deny file-read* file-write* (${dir ? "subpath" : "literal"} ${sbplString(path)}))`,
    })),
    ...plan.readOnly.map((path) => ({ path, order: 2, text: `(allow file-read* (subpath ${sbplString(path)}))` })),
  ]);
  return [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    "(allow file-write*",
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
    '  (regex #"^/dev/tty") (regex #"^/dev/fd/")',
    ")",
    ...rules.map((r) => r.text),
    ...(plan.egress?.kind === "port"
      ? ["(deny network-outbound (remote ip))", `(allow network-outbound (remote ip "localhost:${plan.egress.port}"))`]
      : []),
    "",
  ].join("\n");
}
