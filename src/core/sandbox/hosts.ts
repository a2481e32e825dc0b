/**
 * The sandbox's egress allow-list (#34: `acpThreads.sandbox.allowedHosts`, `--sandbox-hosts`): which hosts a
 * sandboxed agent may reach through the egress proxy. An entry is a host name (`api.openai.com`), a suffix
 * pattern (`*.example.com`: any name below it, not the name itself), or an IP literal (`127.0.0.1`, `[::1]`),
 * each with an optional `:port` (none: any port). Names match case-insensitively and as the client asked for
 * them: the proxy connects to that name afterwards, so no address a name resolves to is ever compared (no DNS
 * rebinding), and an IP literal is reached only when it is listed itself. A bad entry is an error, never skipped.
 */
import { isIP } from "node:net";
import { AcpThreadsError } from "../errors";
import type { HostRule } from "../model/sandbox";

export type { HostRule };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name (not an IP literal) we would connect to: DNS labels, and a last label that is not all digits. */
function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split(".");
  return labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!);
}

/** `host`, `[v6]`, with an optional `:port`, lower-cased; undefined when it is not of that shape. */
export function splitHostPort(text: string): { host: string; port?: string } | undefined {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) return isIP(v6[1]!) === 6 ? { host: v6[1]!.toLowerCase(), port: v6[2] } : undefined;
  const m = /^([^:\s]+)(?::(\d+))?$/.exec(text);
  return m ? { host: m[1]!.toLowerCase().replace(/\.$/, ""), port: m[2] } : undefined;
}

function parsePort(port: string | undefined): number | undefined | null {
  if (port === undefined) return undefined;
  const n = Number(port);
  return /^\d{1,5}$/.test(port) && n >= 1 && n <= 65535 ? n : null;
}

function parseRule(entry: string): HostRule {
  const bad = (why: string) =>
    new AcpThreadsError("usage", `sandbox allowed host '${entry}' is not valid: ${why}`, { entry });
  const text = entry.trim();
  const parts = splitHostPort(text);
  if (!parts) throw bad("expected HOST, *.DOMAIN or an IP address, with an optional :PORT");
  const port = parsePort(parts.port);
  if (port === null) throw bad("the port must be 1-65535");
  if (isIP(parts.host)) return { host: parts.host, suffix: false, port };
  const suffix = parts.host.startsWith("*.");
  const host = suffix ? parts.host.slice(2) : parts.host;
  if (host.includes("*")) throw bad("'*' only as the first label ('*.example.com')");
  if (!isHostName(host)) throw bad("not a host name");
  if (suffix && !host.includes(".")) throw bad("a suffix pattern needs a domain of two labels or more");
  return { host, suffix, port };
}

/** The list validated (the first bad entry is a usage error naming it); duplicates dropped. */
export function parseAllowedHosts(entries: readonly string[]): HostRule[] {
  const rules = new Map<string, HostRule>();
  for (const entry of entries) {
    const rule = parseRule(entry);
    rules.set(`${rule.suffix ? "*." : ""}${rule.host}:${rule.port ?? ""}`, rule);
  }
  return [...rules.values()];
}

/**
 * Whether a client may reach `host`:`port` (the name it asked for). An unusual name (not DNS labels, a numeric
 * last label such as `2130706433`) is refused, whatever the list says.
 */
export function hostAllowed(rules: readonly HostRule[], host: string, port: number): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  const ip = isIP(name) !== 0;
  if (!ip && !isHostName(name)) return false;
  return rules.some(
    (r) =>
      (r.port === undefined || r.port === port) && (r.suffix ? !ip && name.endsWith(`.${r.host}`) : r.host === name),
  );
}
