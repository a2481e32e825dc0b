#!/usr/bin/env node
// The layer check run in the `lint` stage of `npm test`: every import under src/ goes the way the data flows
// (agent → core/acp → core/thread → core/store → core/index → src/vscode, src/cli), and no file is part of an
// import cycle. Prints one line per problem with the file names and exits 1 when there is any.
//
//   node scripts/check-imports.mjs [--root DIR] [--reach]    (DIR defaults to the repository; it must hold src/)
//   node scripts/check-imports.mjs --update-boundary [--add]  (rewrite scripts/engine-boundary.json, see below)
//
// --reach lists, per front end, the engine internals it imports and how many of its files import each.
// The rules (docs/architecture.md draws them: `node scripts/architecture-diagram.mjs`):
// - src/core never imports `vscode`, src/vscode, src/cli or src/webview.
// - Inside src/core a stage imports only stages upstream of it plus the shared leaves (CORE_LEAVES: core/model/**,
//   core/text/** (the pure line diff and merge), core/platform/** (the platform seam every stage asks about
//   shells, processes and paths), core/util/** (guards), and the files directly in src/core); only
//   core/session.ts (with its parts in core/session/) joins the stages, and no stage upstream of it imports them
//   (core/host, downstream of it, runs sessions through it).
// - src/cli never imports src/vscode or src/webview; src/vscode never imports src/cli, and of src/webview only
//   the typed protocol files (src/webview/<panel>/protocol.ts). Nothing outside src/vscode imports src/vscode.
// - src/webview (browser code) imports its own panel, src/webview/shared, core only as `import type` except
//   the browser-safe pure modules in BROWSER_SAFE, and no node built-ins or `vscode`.
// - The engine's boundary (scripts/engine-boundary.mjs, #35 item 7): src/vscode and src/cli import of src/core its
//   API (core/model, the host's protocol and client) and pure helpers; the engine internals they still import are
//   listed per file in scripts/engine-boundary.json, which only shrinks. Each listed pure helper is held to purity.
// Type-only imports count for cycles and layers alike: a type import the wrong way is still a wrong-way
// dependency, and a type cycle is still a tangle (only the webview's browser-safety rule looks at values).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  foldReach,
  FRONT_ENDS,
  impureCode,
  kindOf,
  listed,
  PURE_HELPERS,
  pureImportProblem,
  ratchetProblems,
  readBoundary,
  sideOf,
  updatedBoundary,
  writeBoundary,
} from "./engine-boundary.mjs";

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(path.join(repo, "package.json"))("typescript");

/** Core stages in data-flow order; a stage may import only stages with a lower rank (and the shared leaves). */
export const CORE_STAGES = {
  runtime: 0,
  sandbox: 0,
  acp: 1,
  thread: 2,
  store: 3,
  db: 3,
  snapshot: 4,
  exec: 4,
  prompt: 4,
  import: 4,
  index: 5,
  recall: 5,
  ledger: 5,
  usage: 6,
  bundle: 6,
  watchdog: 6,
  handoff: 6,
  worktree: 7,
  registry: 4,
  retention: 7,
  engine: 8,
  "session.ts": 9,
  host: 10,
};
/**
 * Shared leaves under src/core: folders every stage may import, which import no stage themselves (besides the
 * files directly in src/core). Plain types (model), the pure line diff and merge (text), the platform seam
 * (platform) and the small guards every reader of untrusted JSON needs (util).
 */
export const CORE_LEAVES = ["model", "text", "platform", "util"];
/**
 * Wrong-way imports that are being moved by a named piece of work, as "from → to". Each entry must still
 * exist: once the import is gone the checker asks for the entry to be deleted, so the list only shrinks.
 */
export const PENDING_MOVES = new Map([]);
/** Core modules the browser bundles may import values from: pure code without node built-ins. */
export const BROWSER_SAFE = [/^src\/core\/model\//, /^src\/core\/text\//, /^src\/core\/usage\/format\.ts$/];

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Every import of a file: {spec, typeOnly, line}. Static imports, re-exports, import() and require(). */
export function importsOf(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const add = (node, spec, typeOnly) =>
    out.push({ spec, typeOnly, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      const typeOnly =
        !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      const typeOnly = node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e)) add(node, e.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if (isImport || isRequire) add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal;
      if (ts.isStringLiteral(lit)) add(node, lit.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** A relative specifier → the repository-relative file it names, or null when no such file exists. */
function resolveSpec(root, fromRel, spec) {
  const base = path.join(root, path.dirname(fromRel), spec);
  for (const p of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(p) && statSync(p).isFile()) return path.relative(root, p).split(path.sep).join("/");
  }
  return null;
}

/** The part of the tree a file belongs to: {area: core|cli|vscode|webview|other, stage?, panel?}. */
function where(rel) {
  const parts = rel.split("/");
  if (parts[0] !== "src") return { area: "other" };
  const area = parts[1];
  if (area === "core") {
    if (parts.length === 3) return parts[2] === "session.ts" ? { area, stage: "session.ts" } : { area, leaf: true };
    if (CORE_LEAVES.includes(parts[2])) return { area, leaf: true };
    if (parts[2] === "session") return { area, stage: "session.ts" }; // the joiner's own parts
    return { area, stage: parts[2] };
  }
  if (area === "webview") return { area, panel: parts[2] };
  return { area };
}

const NODE_BUILTIN = /^node:/;

/** The rule an import breaks, or null. `to` is a resolved repository path, or null for a package. */
function violation(from, imp, to) {
  const a = where(from);
  if (!to) {
    const pkg = imp.spec;
    if (pkg === "vscode" && a.area !== "vscode") return `only src/vscode imports 'vscode'`;
    if (a.area === "webview" && NODE_BUILTIN.test(pkg)) return `browser code never imports node built-ins`;
    return null;
  }
  const b = where(to);
  if (a.area === "other") return null;
  if (b.area === "vscode" && a.area !== "vscode") return `nothing outside src/vscode imports src/vscode`;
  if (b.area === "cli" && a.area !== "cli") return `nothing outside src/cli imports src/cli`;
  if (a.area === "core") {
    if (b.area !== "core") return `src/core never imports src/${b.area}`;
    // the stages downstream of the joiner (the thread host, which runs sessions) import it as any upstream stage
    if (b.stage === "session.ts" && a.stage !== "session.ts" && !(CORE_STAGES[a.stage] > CORE_STAGES["session.ts"]))
      return `only core/session.ts joins the stages; no stage upstream of it imports it or its parts (core/session/)`;
    if (b.leaf) return null;
    if (a.leaf) return `shared leaves (core/model, src/core/*.ts) never import a stage (core/${b.stage})`;
    if (a.stage === b.stage) return null;
    const ra = CORE_STAGES[a.stage];
    const rb = CORE_STAGES[b.stage];
    if (ra === undefined) return `core/${a.stage} is not a known stage: add it to CORE_STAGES in order`;
    if (rb === undefined) return `core/${b.stage} is not a known stage: add it to CORE_STAGES in order`;
    if (rb >= ra) return `core/${a.stage} may import only upstream stages, not core/${b.stage}`;
    return null;
  }
  if (a.area === "cli") return b.area === "webview" ? `src/cli never imports src/webview` : null;
  if (a.area === "vscode") {
    if (b.area === "webview" && !/^src\/webview\/[^/]+\/protocol\.ts$/.test(to))
      return `src/vscode imports of src/webview only its typed protocol files`;
    return null;
  }
  if (a.area === "webview") {
    if (b.area === "webview") {
      if (b.panel === a.panel || b.panel === "shared") return null;
      return `src/webview/${a.panel} imports only its own files and src/webview/shared`;
    }
    if (b.area === "core") {
      if (imp.typeOnly || BROWSER_SAFE.some((re) => re.test(to))) return null;
      return `browser code imports core values only from browser-safe modules (BROWSER_SAFE); use 'import type'`;
    }
    return `src/webview never imports src/${b.area}`;
  }
  return null;
}

/** Strongly connected components with more than one file (or a self-import): each one is an import cycle. */
function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)?.has(v)) out.push(comp);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return out;
}

/** One concrete loop through a cycle's files, for the message: a → b → … → a. */
function loopThrough(graph, comp) {
  const inComp = new Set(comp);
  const start = [...comp].sort()[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const pathBack = [];
        for (let x = v; x !== null; x = prev.get(x)) pathBack.unshift(x);
        return [...pathBack, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...comp, comp[0]];
}

/**
 * Checks the tree under `root`; returns {files, imports, problems: string[], coreReach: {front end: count},
 * kinds: {front end: {api, pure, internal}}, reach: the engine internals each front end imports (foldReach)}.
 * `fixture` (a --root tree) skips the repository's own lists: PENDING_MOVES and the pure helpers' existence.
 */
export function checkImports(root, { pendingMoves = PENDING_MOVES, fixture = false } = {}) {
  const pending = new Map(pendingMoves);
  const files = walk(path.join(root, "src")).map((f) => path.relative(root, f).split(path.sep).join("/"));
  const graph = new Map();
  const problems = [];
  const reached = [];
  let count = 0;
  for (const rel of files) {
    const edges = new Set();
    graph.set(rel, edges);
    const text = readFileSync(path.join(root, rel), "utf8");
    const pure = rel.startsWith("src/core/") && kindOf(rel) === "pure";
    if (pure)
      for (const { line, why } of impureCode(rel, text))
        problems.push(`${rel}:${line}: a pure helper (PURE_HELPERS in scripts/engine-boundary.mjs) that ${why}`);
    for (const imp of importsOf(rel, text)) {
      count += 1;
      const relative = imp.spec.startsWith(".");
      const to = relative ? resolveSpec(root, rel, imp.spec) : null;
      if (relative && !to) {
        problems.push(`${rel}:${imp.line}: imports '${imp.spec}', which does not exist`);
        continue;
      }
      if (to) edges.add(to);
      const why = violation(rel, imp, to);
      const key = `${rel} → ${to ?? imp.spec}`;
      if (why && pending.has(key)) pending.delete(key);
      else if (why) problems.push(`${rel}:${imp.line}: wrong-way import of '${to ?? imp.spec}': ${why}`);
      const impure = pure ? pureImportProblem(imp, to) : null;
      if (impure)
        problems.push(`${rel}:${imp.line}: a pure helper (PURE_HELPERS in scripts/engine-boundary.mjs) that ${impure}`);
      if (to?.startsWith("src/core/") && sideOf(rel) && kindOf(to) === "internal")
        reached.push({ from: rel, to, line: imp.line });
    }
  }
  for (const comp of cycles(graph)) {
    const loop = loopThrough(graph, comp);
    const others = comp.filter((f) => !loop.includes(f)).sort();
    problems.push(
      `import cycle: ${loop.join(" → ")}${others.length ? ` (also tangled in it: ${others.join(", ")})` : ""}`,
    );
  }
  for (const key of pending.keys())
    problems.push(`PENDING_MOVES in scripts/check-imports.mjs lists '${key}', which is gone: delete the entry`);
  if (!fixture)
    for (const p of PURE_HELPERS)
      if (!files.some((f) => listed([p], f)))
        problems.push(`PURE_HELPERS in scripts/engine-boundary.mjs lists '${p}', which does not exist: delete it`);
  const coreReach = {};
  const kinds = {};
  for (const front of FRONT_ENDS) {
    const modules = new Set();
    for (const [from, edges] of graph)
      if (from.startsWith(`${front}/`)) for (const to of edges) if (to.startsWith("src/core/")) modules.add(to);
    coreReach[front] = modules.size;
    kinds[front] = { api: 0, pure: 0, internal: 0 };
    for (const m of modules) kinds[front][kindOf(m)] += 1;
  }
  return { files: files.length, imports: count, problems, coreReach, kinds, reach: foldReach(reached) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv;
  const i = argv.indexOf("--root");
  const root = path.resolve(i > 0 ? argv[i + 1] : repo);
  // A fixture tree (--root) is checked without the repository's pending list.
  const r = checkImports(root, { pendingMoves: i > 0 ? new Map() : PENDING_MOVES, fixture: i > 0 });
  let listed = readBoundary(root);
  if (argv.includes("--update-boundary")) {
    const { next, added, dropped } = updatedBoundary(r.reach, listed, argv.includes("--add"));
    for (const e of added) console.log(`engine boundary: added ${e}`);
    for (const e of dropped) console.log(`engine boundary: dropped ${e}`);
    await writeBoundary(root, next);
    listed = next;
  }
  const problems = [...r.problems, ...ratchetProblems(r.reach, listed)];
  for (const p of problems) console.error(p);
  if (argv.includes("--reach"))
    for (const front of FRONT_ENDS)
      for (const [to, from] of Object.entries(r.reach[front]).sort())
        console.log(`${front} → ${to} (${from.size} file${from.size === 1 ? "" : "s"})`);
  const reach = Object.entries(r.coreReach).map(([front, n]) => `${front} ${n}`);
  const kinds = Object.entries(r.kinds).map(
    ([front, k]) => `${front} ${k.internal} internals + ${k.api} API + ${k.pure} pure helpers`,
  );
  console.log(
    `check-imports: ${r.files} files, ${r.imports} imports, ${problems.length} problem(s); core modules imported: ${reach.join(", ")}`,
  );
  console.log(`engine boundary: ${kinds.join(", ")} (--reach lists the internals)`);
  process.exit(problems.length ? 1 : 0);
}
