// The engine's boundary (#35 item 7), checked by scripts/check-imports.mjs: the front ends (src/vscode, src/cli)
// are to reach the engine through its API, not its internals. Every src/core module is one of three kinds:
//   api       the engine API a front end may use: core/model/** (plain types), the thread host's typed protocol
//             and its client (core/host/protocol.ts and its parts protocol-*.ts, client.ts, door.ts: where the
//             host's socket is), and the engine's requests (core/engine/requests.ts: the typed union, its replies,
//             the `Engine` interface; core/engine/local.ts: `localEngine`, the engine in process). The rule of the
//             engine requests: every request and reply is plain JSON data (model types, strings, numbers, arrays
//             and objects of them), never an engine object (no ThreadStore, Db, class instance or function), so
//             it crosses the host's socket unchanged (core/host/protocol-engine.ts); a unit test round-trips each
//             op's reply through JSON. A request that hands an engine object across, or an API module that
//             re-exports an internal, is a way around the boundary, not through it.
//   pure      pure helpers (PURE_HELPERS): computation a front end may share with the engine. A pure helper does
//             no I/O and holds no state: its value imports are only api or pure modules, node:path / node:url
//             (path math) and `diff` (the line diff); it never touches `process`, timers, randomness, `fetch`, `require`, nor the clock
//             (except as a parameter's default: `now = Date.now()` leaves the time to the caller); no `let` /
//             `var` at module level, nor a module-level Map / Set it changes (a constant table is fine). Type-only imports may name anything (they leave no code).
//             Nor does it do I/O through an engine object it is handed (a store, an index, a database: such a
//             module is an internal however small): the checker sees a helper's own code and imports, and the
//             person adding it to the list reads what it is handed. The checker holds every listed helper to the
//             rules it can see, so the list cannot hide an internal that does its own I/O or keeps state.
//   internal  everything else: the engine's internals.
// The internals the front ends still import are listed, per importing file, in scripts/engine-boundary.json (the
// ratchet): an import of an internal not in the list fails, and so does a listed import that is gone, so the list
// stays exact and only shrinks. `--update-boundary` drops the gone entries; `--update-boundary --add` also adds
// the new ones (for merging branches that added imports: review what it prints).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(path.join(repo, "package.json"))("typescript");

/** The engine API: what a front end is meant to import (a path ending in `/` names a folder). */
export const ENGINE_API = [
  "src/core/model/",
  "src/core/host/protocol.ts",
  "src/core/host/protocol-exec.ts",
  "src/core/host/protocol-refusal.ts",
  "src/core/host/protocol-serve.ts",
  "src/core/host/protocol-engine.ts",
  "src/core/host/client.ts",
  "src/core/host/door.ts",
  "src/core/engine/requests.ts",
  "src/core/engine/local.ts",
  "src/core/engine/requests-agents.ts",
  "src/core/engine/requests-worktree.ts",
  "src/core/engine/requests-ledger.ts",
  "src/core/engine/requests-threads.ts",
  "src/core/engine/requests-registry.ts",
  "src/core/engine/requests-agent-import.ts",
  "src/core/engine/worker.ts",
  "src/core/engine/import-job.ts",
  "src/core/engine/requests-sessions.ts",
];
/** Pure helpers (see the rules above), by path; a path ending in `/` names a folder. */
export const PURE_HELPERS = [
  "src/core/text/",
  "src/core/errors.ts",
  "src/core/log.ts",
  "src/core/redact.ts",
  "src/core/retention/bytes.ts",
  "src/core/retention/gc-defaults.ts",
  "src/core/version.ts",
  "src/core/util/guards.ts",
  "src/core/util/fresh-read.ts",
  "src/core/util/recent.ts",
  "src/core/acp/auth-status.ts",
  "src/core/acp/elicitation-form.ts",
  "src/core/acp/fork.ts",
  "src/core/acp/policy-mode.ts",
  "src/core/acp/steering.ts",
  "src/core/handoff/brief.ts",
  "src/core/handoff/fork-cut.ts",
  "src/core/handoff/lineage.ts",
  "src/core/handoff/rewind-point.ts",
  "src/core/host/host-elicitation.ts",
  "src/core/host/missed-events.ts",
  "src/core/host/question-events.ts",
  "src/core/host/thread-tag.ts",
  "src/core/host/turn-report.ts",
  "src/core/index/away-summary.ts",
  "src/core/ledger/content.ts",
  "src/core/ledger/hunks.ts",
  "src/core/ledger/ledger-view.ts",
  "src/core/ledger/records.ts",
  "src/core/ledger/restored.ts",
  "src/core/prompt/blocks.ts",
  "src/core/prompt/embed.ts",
  "src/core/prompt/fuzzy.ts",
  "src/core/prompt/refs.ts",
  "src/core/recall/mcp-offer.ts",
  "src/core/recall/render.ts",
  "src/core/recall/describe.ts",
  "src/core/thread/conversation.ts",
  "src/core/thread/record-events.ts",
  "src/core/usage/format.ts",
  "src/core/usage/groups.ts",
  "src/core/usage/ledger.ts",
  "src/core/usage/meter.ts",
  "src/core/usage/since.ts",
  "src/core/acp/rule-text.ts",
  "src/core/platform/data-home.ts",
  "src/core/runtime/runtimes-dir.ts",
  "src/core/acp/probe-lines.ts",
  "src/core/acp/agent-presets.ts",
  "src/core/acp/command-line.ts",
  "src/core/registry/types.ts",
  "src/core/registry/deprecated.ts",
  "src/core/registry/installed-spec.ts",
  "src/core/ledger/files-label.ts",
  "src/core/sandbox/labels.ts",
  "src/core/index/thread-days.ts",
  "src/core/registry/semver.ts",
  "src/core/registry/update-for.ts",
  "src/core/registry/auth-label.ts",
  "src/core/registry/url.ts",
  "src/core/registry/layout.ts",
  "src/core/registry/platform.ts",
  "src/core/import/import-summary.ts",
  "src/core/worktree/ranking.ts",
  "src/core/worktree/best-of-progress.ts",
  "src/core/thread/title.ts",
  "src/core/bundle/traffic-path.ts",
];
/** Packages a pure helper may import values from: path math (node:path, node:url) and the line diff (diff). */
const PURE_PACKAGES = new Set(["node:path", "node:url", "diff"]);
/** The front ends the boundary holds, and the ratchet's file. */
export const FRONT_ENDS = ["src/vscode", "src/cli"];
export const BOUNDARY_FILE = "scripts/engine-boundary.json";
const UPDATE = "node scripts/check-imports.mjs --update-boundary";

/** The kind of a src/core module: "api", "pure" or "internal". */
export function kindOf(rel, pure = PURE_HELPERS) {
  if (listed(ENGINE_API, rel)) return "api";
  return listed(pure, rel) ? "pure" : "internal";
}

/** Whether `rel` is one of `paths` or inside one of its folders (a path ending in `/`). */
export const listed = (paths, rel) => paths.some((p) => (p.endsWith("/") ? rel.startsWith(p) : rel === p));

/** The front end a file belongs to, or null. */
export const sideOf = (rel) => FRONT_ENDS.find((f) => rel.startsWith(`${f}/`)) ?? null;

const STATEFUL = new Set(["Map", "Set", "WeakMap", "WeakSet"]);
const MUTATORS = new Set(["add", "set", "delete", "clear"]);
const FORBIDDEN_NAMES = new Map([
  ["process", "reads `process`"],
  ["setTimeout", "starts a timer"],
  ["setInterval", "starts a timer"],
  ["setImmediate", "starts a timer"],
  ["fetch", "does network I/O"],
  ["require", "loads a module at run time"],
]);

/** Why a pure helper's own code is not pure: [{line, why}] (its imports are checked by `pureImportProblem`). */
export function impureCode(rel, text) {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const at = (node, why) => out.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, why });
  const inParameterDefault = (node) => {
    for (let n = node; n.parent; n = n.parent) if (ts.isParameter(n.parent) && n.parent.initializer === n) return true;
    return false;
  };
  const collections = new Map(); // module-level Map / Set: a constant table unless something changes it
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    if (!(st.declarationList.flags & ts.NodeFlags.Const)) at(st, "keeps module state (`let` / `var`)");
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression) && STATEFUL.has(init.expression.text))
        if (ts.isIdentifier(d.name)) collections.set(d.name.text, init.expression.text);
    }
  }
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      collections.has(node.expression.expression.text) &&
      MUTATORS.has(node.expression.name.text)
    )
      at(node, `keeps module state (the module-level ${collections.get(node.expression.expression.text)} it changes)`);
    if (ts.isIdentifier(node) && FORBIDDEN_NAMES.has(node.text)) {
      const p = node.parent;
      const named = ts.isPropertyAccessExpression(p) && p.name === node; // `x.process` is someone's property
      const declared = (ts.isPropertyAssignment(p) || ts.isPropertySignature(p)) && p.name === node;
      if (!named && !declared && !ts.isTypeReferenceNode(p)) at(node, FORBIDDEN_NAMES.get(node.text));
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const what = `${node.expression.text}.${node.name.text}`;
      if (what === "Math.random") at(node, "uses randomness");
      if (what === "Date.now" && !inParameterDefault(node)) at(node, "reads the clock");
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Date") {
      if (!node.arguments?.length && !inParameterDefault(node)) at(node, "reads the clock");
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Why an import of a pure helper breaks its purity, or null. `to` is the resolved core path or null (package). */
export function pureImportProblem(imp, to, pure = PURE_HELPERS) {
  if (imp.typeOnly) return null;
  if (!to) return PURE_PACKAGES.has(imp.spec) ? null : `imports '${imp.spec}' (only ${[...PURE_PACKAGES].join(", ")})`;
  if (!to.startsWith("src/core/")) return `imports '${to}', outside src/core`;
  return kindOf(to, pure) === "internal" ? `imports the engine internal '${to}'` : null;
}

/** The ratchet as read from `root`: {side: {internal module: [importing files]}}; a missing file lists nothing. */
export function readBoundary(root) {
  const file = path.join(root, BOUNDARY_FILE);
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, "utf8"));
  const out = {};
  for (const side of FRONT_ENDS) out[side] = parsed[side] ?? {};
  return out;
}

/** Writes the ratchet, sorted and as prettier lays it out (`npm run lint` checks the layout). */
export async function writeBoundary(root, listed) {
  const doc = { about: `engine internals the front ends still import (scripts/engine-boundary.mjs); ${UPDATE}` };
  for (const side of FRONT_ENDS) {
    const modules = listed[side] ?? {};
    doc[side] = Object.fromEntries(
      Object.keys(modules)
        .sort()
        .map((m) => [m, [...modules[m]].sort()]),
    );
  }
  const prettier = createRequire(path.join(repo, "package.json"))("prettier");
  const file = path.join(root, BOUNDARY_FILE);
  const options = (await prettier.resolveConfig(path.join(repo, BOUNDARY_FILE))) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(doc), { ...options, parser: "json" }));
}

/**
 * The reached internals: `reached` is [{from, to, line}] (every front-end import of an internal), folded into
 * {side: {module: Map(file → first line)}}.
 */
export function foldReach(reached) {
  const out = Object.fromEntries(FRONT_ENDS.map((f) => [f, {}]));
  for (const { from, to, line } of reached) {
    const modules = out[sideOf(from)];
    const files = (modules[to] ??= new Map());
    if (!files.has(from)) files.set(from, line);
  }
  return out;
}

/** The ratchet's problems: imports of internals not listed, listed imports that are gone. */
export function ratchetProblems(actual, listed) {
  const problems = [];
  for (const side of FRONT_ENDS) {
    const now = actual[side] ?? {};
    const was = listed[side] ?? {};
    for (const [to, files] of Object.entries(now))
      for (const [from, line] of files)
        if (!(was[to] ?? []).includes(from))
          problems.push(
            `${from}:${line}: imports the engine internal '${to}', which ${BOUNDARY_FILE} does not list for it: ` +
              `use the engine API (core/model, core/host/protocol.ts and its client) or a pure helper; ` +
              `if it must stay for now, run ${UPDATE} --add and commit the list`,
          );
    for (const [to, files] of Object.entries(was))
      for (const from of files)
        if (!now[to]?.has(from))
          problems.push(
            `${BOUNDARY_FILE} lists ${from} → ${to}, which ${from} no longer imports as an engine internal: ` +
              `run ${UPDATE} to drop it (the list only shrinks)`,
          );
  }
  return problems.sort();
}

/**
 * The ratchet after an update: the listed entries still imported, plus (with `add`) every new one.
 * Returns {next, added: ["from → to"], dropped: ["from → to"]}.
 */
export function updatedBoundary(actual, listed, add) {
  const next = {};
  const added = [];
  const dropped = [];
  for (const side of FRONT_ENDS) {
    const now = actual[side] ?? {};
    const was = listed[side] ?? {};
    next[side] = {};
    for (const [to, files] of Object.entries(now))
      for (const from of files.keys()) {
        const kept = (was[to] ?? []).includes(from);
        if (!kept && !add) continue;
        if (!kept) added.push(`${from} → ${to}`);
        (next[side][to] ??= []).push(from);
      }
    for (const [to, files] of Object.entries(was))
      for (const from of files) if (!now[to]?.has(from)) dropped.push(`${from} → ${to}`);
  }
  return { next, added: added.sort(), dropped: dropped.sort() };
}
