/**
 * The engine's one dispatcher (#35 item 7): checks an engine request (core/engine/requests.ts), whoever sent it (a
 * front end in process, a client over the host's socket), and hands it to its area's handler (serve-*.ts). A request
 * of the wrong shape is refused with a usage error naming the field; nothing is done.
 */
import { isAbsolute } from "node:path";
import { AcpThreadsError } from "../errors";
import type { EngineCallOptions, EngineOp, EngineRequest } from "./requests";
import { DATA_CATEGORIES } from "../retention/measure";
import { handoffOps } from "./serve-handoff";
import { retentionOps } from "./serve-retention";
import { usageOps } from "./serve-usage";
import { worktreeOps } from "./serve-worktree";
import { worktreeApplyOps } from "./serve-worktree-apply";
import { USAGE_GROUPS } from "../usage/groups";
import { markdownOps, snapshotOps } from "./serve-snapshot";
import { isAgentSpec, isDoctorAgents } from "./agent-spec-shape";
import type { EngineContext, Handlers, Report } from "./serve-types";
import type { RecallRequest } from "./requests-recall";
import { permissionOps } from "./serve-permissions";
import { recallOps } from "./serve-recall";
import { recallIndexOps } from "./serve-recall-index";
import { cancelledError } from "./cancel";
import { PERMISSION_POLICIES } from "../model/agent";
import { ledgerOps } from "./serve-ledger";
import { sandboxOps } from "./serve-sandbox";
import { threadsOps } from "./serve-threads";
import { threadsArchiveOps } from "./serve-threads-archive";
import { agentImportShapes, registryShapes } from "./lazy-shapes";
import { lazyOps } from "./serve-lazy";
import { worktreeThreadOps } from "./serve-worktree-thread";
import { sessionsOps } from "./serve-sessions";
import { cliTargetOps } from "./serve-clitarget";
import { agentResolveOps } from "./serve-agent-resolve";
import { followOps } from "./serve-follow";
import { reviewOps } from "./serve-review";
import { bundleOps } from "./serve-bundle";

const HANDLERS: Handlers<EngineOp> = {
  ...snapshotOps,
  ...markdownOps,
  ...handoffOps,
  ...retentionOps,
  ...usageOps,
  ...permissionOps,
  ...recallOps,
  ...lazyOps(
    ["runtime.list", "runtime.install", "runtime.remove", "agents.doctor", "agents.logout", "agents.deleteSession"],
    async () => (await import("./serve-agents")).agentsOps,
  ),
  ...worktreeOps,
  ...worktreeApplyOps,
  ...ledgerOps,
  ...sandboxOps,
  ...threadsOps,
  ...threadsArchiveOps,
  ...lazyOps(
    ["registry.list", "registry.install", "registry.update", "registry.remove", "agents.installed"],
    async () => (await import("./serve-registry")).registryOps,
  ),
  ...lazyOps(["agents.import"], async () => (await import("./serve-agent-import")).agentImportOps),
  ...recallIndexOps,
  ...worktreeThreadOps,
  ...lazyOps(["bestof.list", "bestof.read"], async () => (await import("./serve-bestof")).bestOfOps),
  ...sessionsOps,
  ...cliTargetOps,
  ...agentResolveOps,
  ...followOps,
  ...reviewOps,
  ...bundleOps,
};

/** A field's kind (`?`: it may be absent); `path`: an absolute path. */
type Kind =
  | "string"
  | "path"
  | "number"
  | "count"
  | "boolean"
  | "paths"
  | "dirs"
  | "agent"
  | "categories"
  | "usageGroup"
  | "strings"
  | "policy"
  | "format"
  | "doctorAgents"
  | "spec"
  | "root";
type Shape = Record<string, Kind | `${Kind}?`>;

const SHAPES: { [O in EngineOp]: Shape } = {
  "export.folder": { home: "path?" },
  "export.names": { threadId: "string" },
  "snapshot.list": { dirs: "dirs" },
  "snapshot.inspect": { path: "path" },
  "snapshot.export": { threadId: "string", outFile: "path?", dir: "path?" },
  "snapshot.restore": { path: "path", rootDir: "string?", allowedRoots: "paths?" },
  "markdown.export": { threadId: "string", outFile: "path?" },
  "fork.write": {
    sourceId: "string",
    at: "number",
    agent: "agent?",
    agentSessionId: "string?",
    title: "string?",
    allowEmpty: "boolean?",
  },
  "handoff.link": { from: "string", to: "string", write: "boolean?" },
  "retention.measure": {},
  "retention.gc": { trashDays: "count?", trafficMaxBytes: "count?", only: "categories?", dryRun: "boolean?" },
  "retention.clear": { categories: "categories" },
  "usage.report": { by: "usageGroup", since: "number?", threadId: "string?", agent: "string?" },
  "permissions.list": {},
  "permissions.add": { effect: "string", kind: "string", pattern: "string", agentId: "string", scope: "string" },
  "permissions.revoke": { ids: "strings" },
  "permissions.clear": {},
  "permissions.check": { kind: "string", target: "string", agentId: "string", policy: "policy", cwd: "path" },
  ...recallShapes(),
  "runtime.list": {},
  "runtime.install": { spec: "string?" },
  "runtime.remove": { version: "string" },
  "agents.doctor": {
    cwd: "path",
    custom: "doctorAgents?",
    probe: "boolean?",
    probeTimeoutMs: "count?",
    timeoutMs: "count?",
    nodePath: "string?",
    managedNodes: "boolean?",
  },
  "agents.logout": { spec: "spec", cwd: "path", nodePath: "string?", managedNodes: "boolean?" },
  "agents.deleteSession": {
    spec: "spec",
    sessionId: "string",
    cwd: "path",
    nodePath: "string?",
    managedNodes: "boolean?",
  },
  "worktree.list": {},
  "worktree.state": { threadId: "string" },
  "worktree.discard": { threadId: "string" },
  "worktree.branch-name": { threadId: "string", name: "string" },
  "worktree.commit": { threadId: "string", branch: "string", message: "string" },
  "worktree.apply": { threadId: "string", dryRun: "boolean?", force: "boolean?", merge: "boolean?" },
  "ledger.changes": { threadId: "string", turn: "count?", patch: "boolean?" },
  "handoff.brief": { threadId: "string" },
  "ledger.restore": {
    threadId: "string",
    turn: "count?",
    target: "string?",
    undo: "boolean?",
    fromTurn: "count?",
    files: "paths?",
    dryRun: "boolean?",
    force: "boolean?",
    expect: "string?",
  },
  "sandbox.availability": {},
  "sandbox.hosts": { hosts: "strings" },
  "threads.list": {
    workspace: "path?",
    agent: "string?",
    origin: "string?",
    status: "string?",
    worktree: "boolean?",
    since: "string?",
    before: "string?",
    archived: "string?", // one of exclude, only, include: serve-threads.ts checks it
    limit: "count?",
    rescan: "boolean?",
  },
  "threads.read": { threadId: "string", from: "count?" },
  "threads.meta": { threadId: "string" },
  "threads.rename": { threadId: "string", title: "string" },
  "threads.archive": {
    archived: "boolean",
    ids: "strings?",
    olderThan: "string?",
    dryRun: "boolean?",
    workspace: "path?",
    agent: "string?",
    origin: "string?",
    status: "string?",
    worktree: "boolean?",
  },
  ...registryShapes,
  ...agentImportShapes,
  "recall.import": { own: "boolean?", codex: "root?", claude: "root?" },
  "recall.compact": { added: "count" },
  "worktree.thread": { thread: "string" },
  "bestof.list": {},
  "bestof.read": { id: "string?" },
  "threads.named": { name: "string", workspace: "path", agent: "string?" },
  "threads.away": {
    since: "string",
    workspace: "path?",
    agent: "string?",
    origin: "string?",
    status: "string?",
    worktree: "boolean?",
    before: "string?",
    archived: "string?", // checked as threads.list checks it
    limit: "count?",
    rescan: "boolean?",
  },
  "threads.scan": { roots: "paths", agent: "string?", origin: "string?", status: "string?", archived: "string?" },
  "threads.writer": { threadId: "string" },
  "threads.resolve": { threadId: "string", trash: "boolean?" },
  "threads.workspace": { cwd: "path" },
  "threads.delete": { threadId: "string" },
  "threads.restore": { threadId: "string" },
  "agents.resolve": { agent: "string", cwd: "path", allowMissing: "boolean?" },
  "agents.which": { spec: "spec", cwd: "path" },
  "threads.follow": { threadId: "string", fromOffset: "count?", pollMs: "count?" },
  "review.placed": { threads: "strings", path: "path", text: "string" },
  "review.author": { threads: "strings", path: "path" },
  "review.forget": { threadId: "string" },
  "review.pending": { threadId: "string" },
  "bundle.name": { threadId: "string" },
  "bundle.save": { threadId: "string", outFile: "path?", dir: "path?" },
  "review.keep": { threadId: "string", target: "string", path: "path", hunk: "count?" },
  "review.undo": { threadId: "string", target: "string", path: "path", hunk: "count?", force: "boolean?" },
  "review.keepAll": { threadId: "string", target: "string" },
  "review.turnChanges": { threadId: "string", cwd: "path" },
  "bundle.replay": { file: "path", stepTimeoutMs: "count?" },
};

/** The recall requests' shapes: a scope, a search's options, a text format. */
function recallShapes(): { [O in RecallRequest["op"]]: Shape } {
  const scope = { cwd: "path?", global: "boolean?", sync: "boolean?" } as const;
  const search = {
    ...scope,
    query: "string",
    allTerms: "boolean?",
    ...Object.fromEntries(
      ["limit", "windowsPerSession", "before", "after", "budgetChars", "messageChars", "toolMessageChars"].map((k) => [
        k,
        "count?",
      ]),
    ),
  } as Shape;
  return {
    "recall.search": search,
    "recall.searchText": { ...search, format: "format" },
    "recall.recent": { ...scope, limit: "count?" },
    "recall.recentText": { ...scope, limit: "count?", format: "format" },
    "recall.status": {},
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPath = (v: unknown) => typeof v === "string" && isAbsolute(v);

const FITS: Record<Kind, [(v: unknown) => boolean, string]> = {
  string: [(v) => typeof v === "string", "a string"],
  path: [isPath, "an absolute path"],
  number: [(v) => typeof v === "number" && Number.isFinite(v), "a number"],
  count: [(v) => typeof v === "number" && Number.isFinite(v) && v >= 0, "a number, 0 or more"],
  boolean: [(v) => typeof v === "boolean", "true or false"],
  paths: [(v) => Array.isArray(v) && v.every(isPath), "a list of absolute paths"],
  dirs: [
    (v) =>
      Array.isArray(v) &&
      v.every((d) => isObject(d) && isPath(d.dir) && [undefined, true, false].includes(d.savedOnly as boolean)),
    "a list of {dir: absolute path, savedOnly?: boolean}",
  ],
  categories: [
    (v) => Array.isArray(v) && v.every((c) => (DATA_CATEGORIES as readonly unknown[]).includes(c)),
    `a list of data categories (${DATA_CATEGORIES.join(", ")})`,
  ],
  usageGroup: [(v) => (USAGE_GROUPS as readonly unknown[]).includes(v), `one of ${USAGE_GROUPS.join(", ")}`],
  agent: [
    (v) => isObject(v) && typeof v.id === "string" && typeof v.name === "string" && typeof v.command === "string",
    "an agent {id, name, command}",
  ],
  strings: [(v) => Array.isArray(v) && v.every((s) => typeof s === "string"), "a list of strings"],
  format: [(v) => v === "markdown" || v === "json", "markdown or json"],
  policy: [(v) => (PERMISSION_POLICIES as readonly unknown[]).includes(v), `one of ${PERMISSION_POLICIES.join(", ")}`],
  spec: [isAgentSpec, "an agent spec {id, displayName, command, args: strings, env?: strings by name}"],
  doctorAgents: [isDoctorAgents, "agents by id, each {command: string, args?: strings, env?: strings by name}"],
  root: [
    (v) =>
      isObject(v) &&
      isPath(v.root) &&
      ["sinceDays", "limitFiles"].every((k) => v[k] === undefined || FITS.count[0](v[k])) &&
      [undefined, true, false].includes(v.allHistory as boolean),
    "a transcript root {root: absolute path, sinceDays?, limitFiles?: counts, allHistory?: boolean}",
  ],
};

/** The request, checked against its op's shape; a usage error naming what is wrong otherwise. */
export function checkRequest(req: unknown): EngineRequest {
  if (!isObject(req) || typeof req.op !== "string" || !Object.hasOwn(SHAPES, req.op))
    throw new AcpThreadsError(
      "usage",
      `not an engine request: 'op' must be one of ${Object.keys(SHAPES).join(", ")} (got ${isObject(req) ? JSON.stringify(req.op) : typeof req})`,
    );
  const shape: Shape = SHAPES[req.op as EngineOp];
  for (const [field, spec] of Object.entries(shape)) {
    const optional = spec.endsWith("?");
    const [fits, what] = FITS[spec.replace("?", "") as Kind];
    const value = req[field];
    if ((value === undefined && !optional) || (value !== undefined && !fits(value)))
      throw new AcpThreadsError("usage", `engine request ${req.op}: '${field}' must be ${what}`);
  }
  return req as EngineRequest;
}

/** Serves one engine request (checked first); its progress goes to `onProgress`. */
export async function serveEngine(ctx: EngineContext, req: unknown, opts: EngineCallOptions = {}): Promise<unknown> {
  if (opts.signal?.aborted) throw cancelledError(false);
  const checked = checkRequest(req);
  // a thread this process closed a moment ago (the window's session, durability "soon") is durable and unlocked
  // first: a synchronous open or delete of it would be refused while its lock is still going
  await ctx.store.whenAllClosed();
  const handler = HANDLERS[checked.op] as (
    ctx: EngineContext,
    req: EngineRequest,
    report: Report,
    signal?: AbortSignal,
  ) => unknown;
  return await handler(ctx, checked, opts.onProgress ?? (() => {}), opts.signal);
}
