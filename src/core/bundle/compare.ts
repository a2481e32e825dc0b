import { isObj } from "../util/guards";
/**
 * How replay compares what the client sends now with what it sent when the bundle was recorded: JSON-RPC
 * plumbing (`jsonrpc`, ids), `_meta`, the client's own version and the workspace path are not behaviour; the
 * output of a command the client ran is (its exit status is compared, the text only noted: `ls -la` differs
 * between two runs by its dates alone).
 */

type Json = unknown;

/** The comparable form of a client message (ids and paths already mapped by the caller). */
export function comparable(message: Record<string, Json>, opts: { method?: string } = {}): Json {
  const strip = (v: Json, path: string[]): Json => {
    if (Array.isArray(v)) return v.map((x) => strip(x, path));
    if (!isObj(v)) return v;
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "_meta" || k === "jsonrpc" || (k === "id" && path.length === 0)) continue;
      if (path.join(".") === "params.clientInfo" && k === "version") continue;
      out[k] = strip(x, [...path, k]);
    }
    return out;
  };
  const m = strip(message, []) as Record<string, Json>;
  // command output: compare how it ended, not its text
  if (opts.method === "terminal/output" && isObj(m.result)) {
    const { output: _o, truncated: _t, ...rest } = m.result;
    return { ...m, result: rest };
  }
  return m;
}

/**
 * Capabilities the client added to `initialize` since the bundle was recorded are not divergences: the recorded
 * agent never saw them, and a user's bug bundle must keep replaying on newer releases. A capability the client
 * dropped or changed still is one. Returns the replayed message with only the capability keys the recording has.
 */
export function withoutAddedCapabilities(recorded: Json, replayed: Json): Json {
  const caps = (m: Json) => (isObj(m) && isObj(m.params) ? m.params.clientCapabilities : undefined);
  const rc = caps(recorded);
  const pc = caps(replayed);
  if (!isObj(rc) || !isObj(pc) || !isObj(replayed) || !isObj(replayed.params)) return replayed;
  const prune = (r: Record<string, Json>, p: Record<string, Json>): Record<string, Json> =>
    Object.fromEntries(
      Object.entries(p)
        .filter(([k]) => k in r)
        .map(([k, v]) => [k, isObj(r[k]) && isObj(v) ? prune(r[k], v) : v]),
    );
  return { ...replayed, params: { ...replayed.params, clientCapabilities: prune(rc, pc) } };
}

/** The first place two JSON values differ, as a path ("params.prompt[0].text"), or undefined when equal. */
export function firstDifference(a: Json, b: Json, path = ""): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)].sort())) {
      const d = firstDifference(a[k], b[k], path ? `${path}.${k}` : k);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return path || "(value)";
}

/** Reads a value at a path made by `firstDifference`. */
export function valueAt(v: Json, path: string): Json {
  if (path === "(value)") return v;
  let cur: Json = v;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (Array.isArray(cur)) cur = cur[Number(part)];
    else if (isObj(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}
