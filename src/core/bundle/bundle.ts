/**
 * Bug bundles: one JSON file with everything needed to reproduce what happened in a thread, safe to attach to
 * an issue: the thread's protocol traffic (see traffic.ts), its records, and the versions involved. Secrets are
 * redacted again (every string), the workspace and home paths become `${WORKSPACE}` and `${HOME}` (replay puts a
 * fresh folder there), env values are never in it. Written atomically, mode 0600.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import type { ThreadRecord } from "../model/records";
import type { AgentInfoRef } from "../model/usage";
import { redactSecrets } from "../redact";
import { writeFileAtomicAsync } from "../store/atomic-write";
import type { ThreadStore } from "../store/thread-store";
import { readTraffic, type TrafficEntry } from "./traffic";

export const BUNDLE_FORMAT = "acp-threads-bug-bundle";
export const BUNDLE_VERSION = 1;
export const WORKSPACE_PLACEHOLDER = "${WORKSPACE}";
export const HOME_PLACEHOLDER = "${HOME}";

export interface BugBundle {
  format: typeof BUNDLE_FORMAT;
  version: number;
  createdAt: string;
  versions: {
    acpThreads: string;
    node: string;
    platform: string;
    arch: string;
    /** The agents that served the thread (from its session_open records), oldest first. */
    agents: AgentInfoRef[];
  };
  agent: { id: string; name: string };
  thread: { threadId: string; title: string | null; records: ThreadRecord[] };
  traffic: TrafficEntry[];
  /** What is not in the bundle and why (rotated traffic, lines cut by the log's size cap). */
  notes: string[];
}

/** Applies `fn` to every string inside a JSON value, object keys included (codex keys patches by path). */
export function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === "string") return fn(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn)) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapStrings(v, fn)])) as T;
  return value;
}

/** Replaces every occurrence of each path (longest first) in a string. */
export function replacePaths(pairs: [from: string, to: string][]): (s: string) => string {
  const sorted = pairs.filter(([from]) => from.length > 1).sort((a, b) => b[0].length - a[0].length);
  return (s) => sorted.reduce((acc, [from, to]) => acc.split(from).join(to), s);
}

/** A thread's bug bundle, read off the caller's thread (fs/promises). */
export async function buildBugBundle(
  store: ThreadStore,
  threadId: string,
  opts: { acpThreadsVersion: string; home?: string },
): Promise<BugBundle> {
  const { metadata, records } = await store.readExisting(threadId);
  const read = await readTraffic(join(store.layout.trafficDir, `${threadId}.ndjson`));
  const notes: string[] = [];
  const traffic: TrafficEntry[] = read.entries;
  if (read.rotated) notes.push("the oldest traffic of this long thread was rotated out; the bundle starts later");
  else if (!traffic.length)
    notes.push("no protocol traffic was recorded for this thread (recorded before traffic files existed?)");
  const cut = traffic.filter((e) => e.x && (e.d === "send" || e.d === "recv")).length;
  if (cut) notes.push(`${cut} message(s) over the protocol log's size cap are kept as cut text only`);
  const anonymize = replacePaths([
    [metadata.cwd, WORKSPACE_PLACEHOLDER],
    ...(metadata.repoRoot && metadata.repoRoot !== metadata.cwd
      ? [[metadata.repoRoot, WORKSPACE_PLACEHOLDER] as [string, string]]
      : []),
    [opts.home ?? homedir(), HOME_PLACEHOLDER],
  ]);
  const clean = <T>(v: T): T => mapStrings(v, (s) => anonymize(redactSecrets(s)));
  const agents = records.flatMap((r) => (r.kind === "session_open" && r.agentInfo ? [r.agentInfo] : []));
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: new Date().toISOString(),
    versions: {
      acpThreads: opts.acpThreadsVersion,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      agents: agents.filter((a, i) => agents.findIndex((b) => b.name === a.name && b.version === a.version) === i),
    },
    agent: { id: metadata.agent.id, name: metadata.agent.name },
    thread: { threadId, title: clean(metadata.title), records: clean(records) },
    traffic: clean(traffic),
    notes,
  };
}

export function writeBugBundle(bundle: BugBundle, path: string): Promise<void> {
  return writeFileAtomicAsync(path, JSON.stringify(bundle) + "\n", { mode: 0o600 });
}

/** Reads and checks a bundle; a wrong file gets a clear error. */
export function readBugBundle(path: string): BugBundle {
  return checkedBundle(path, () => readFileSync(path, "utf8"));
}

/** `readBugBundle` with fs/promises (the engine's `bundle.replay`): the same checks and errors. */
export async function readBugBundleAsync(path: string): Promise<BugBundle> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw notBundle(path, err);
  }
  return checkedBundle(path, () => text);
}

const notBundle = (path: string, err: unknown) =>
  new AcpThreadsError("usage", `${path} is not a bug bundle: ${(err as Error).message}`);

function checkedBundle(path: string, read: () => string): BugBundle {
  let value: unknown;
  try {
    value = JSON.parse(read());
  } catch (err) {
    throw notBundle(path, err);
  }
  const b = value as Partial<BugBundle> | null;
  if (!b || b.format !== BUNDLE_FORMAT)
    throw new AcpThreadsError("usage", `${path} is not an ACP Threads bug bundle (no "format": "${BUNDLE_FORMAT}")`);
  if (typeof b.version !== "number" || b.version > BUNDLE_VERSION)
    throw new AcpThreadsError(
      "unsupported_version",
      `${path} is bundle format ${String(b.version)}; this ACP Threads reads up to ${BUNDLE_VERSION}: upgrade`,
    );
  if (!Array.isArray(b.traffic) || !b.thread || !Array.isArray(b.thread.records))
    throw new AcpThreadsError("corrupt", `${path} is missing its traffic or thread records`);
  return b as BugBundle;
}

/** `acp-threads-bug-<agent>-<thread id prefix>-<UTC time>.json` */
export function bundleFileName(bundle: Pick<BugBundle, "createdAt" | "agent"> & { threadId: string }): string {
  const at = bundle.createdAt.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `acp-threads-bug-${bundle.agent.id.replace(/[^\w.-]/g, "_")}-${bundle.threadId.slice(0, 18)}-${at}.json`;
}
