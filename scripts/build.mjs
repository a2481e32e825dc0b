// Builds every bundle with esbuild. Entry points are found by convention so new files need no edit here:
//   src/vscode/extension.ts           -> dist/extension.js   (cjs, vscode + node-pty external)
//   src/cli/main.ts                   -> dist/cli.js         (cjs, with a shebang; only the dispatcher)
//   src/cli/commands/<name>.ts        -> dist/cli/<name>.js for recall/status/mcp/threads/attach/host, else dist/cli/commands.js (cjs)
//   src/**/<name>.worker.ts           -> dist/<name>-worker.js (cjs, a worker_threads entry)
//   src/core/platform/spawner-main.ts -> dist/spawner.js    (cjs, the process the extension host forks through)
//   src/webview/<name>/main.ts        -> dist/webview/<name>.js (iife, browser)
//   test/**/*.{test,main}.ts, bench/**/*.{test,main}.ts -> dist-test/<same path>.js (cjs)
// The ACP SDK is ESM-only; bundling turns it into CommonJS. sql.js's wasm is copied next to the bundles.
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, chmodSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const production = process.argv.includes("--production");
// The one place a version is read: every bundle gets package.json's (src/core/version.ts).
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const external = ["vscode", "node-pty", "node-sqlite3-wasm", "mocha", "playwright-core", "esbuild"];
const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: production ? false : "linked",
  minify: production,
  external,
  logLevel: "warning",
  define: { __ACP_THREADS_VERSION__: JSON.stringify(version) },
};

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const builds = [];
if (existsSync("src/vscode/extension.ts")) {
  builds.push(esbuild.build({ ...common, entryPoints: ["src/vscode/extension.ts"], outfile: "dist/extension.js" }));
}
if (existsSync("src/cli/main.ts")) {
  // A CLI process compiles only the dispatcher and the command it runs (an agent pays the start-up of
  // `acp-threads recall` on every call). The commands agents call as a fresh process each time (recall, status,
  // mcp; attach, whose time to first byte is a target of #35) get a bundle each, dist/cli/<name>.js; the others
  // share dist/cli/commands.js (one copy of the ACP SDK and the engine instead of one per command). main.ts's `import("./commands/x")` becomes a require of the bundle.
  const commandsDir = "src/cli/commands";
  const names = readdirSync(commandsDir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.replace(/\.ts$/, ""));
  // threads too (#36): `threads list` answers from the index; the shared bundle's start-up was most of its time;
  // attach too (#35): its first byte is measured against a bare node; host too (#35): the thread host (`host
  // serve`) lives on in the background, and its idle RSS is a target: it loads the server and the run path only
  const own = new Set(["recall", "status", "mcp", "threads", "attach", "host"]);
  rmSync("dist/cli", { recursive: true, force: true }); // no bundle of an earlier layout rides along into the VSIX
  const shared = names.filter((n) => !own.has(n));
  // Each bundle has its own copy of the modules the dispatcher configures (the lock label, the PTY fallback
  // notice): it exports those hooks next to the command, and main.ts calls the loaded bundle's ones.
  const hooks = [
    `export { setLockLabel } from "../core/store/file-lock";`,
    `export { onPtyFallback } from "../core/platform/pty";`,
  ];
  const splitCommands = {
    name: "split-commands",
    setup(b) {
      b.onResolve({ filter: /^\.\/commands\/[\w-]+$/ }, (args) => {
        if (!args.importer.endsWith(join("src", "cli", "main.ts"))) return undefined;
        const name = args.path.slice("./commands/".length);
        return own.has(name) ? { path: `./cli/${name}.js`, external: true } : { path: name, namespace: "shared" };
      });
      b.onResolve({ filter: /^\.\/cli\/commands\.js$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: "shared" }, (args) => ({
        contents: `const m = require("./cli/commands.js");
module.exports = { main: m.commands[${JSON.stringify(args.path)}], setLockLabel: m.setLockLabel, onPtyFallback: m.onPtyFallback };`,
        resolveDir: root,
        loader: "js",
      }));
    },
  };
  const commandEntry = {
    name: "command-entry",
    setup(b) {
      b.onResolve({ filter: /^command:/ }, (args) => ({
        path: args.path.slice("command:".length),
        namespace: "command",
      }));
      b.onLoad({ filter: /.*/, namespace: "command" }, (args) => ({
        contents:
          args.path === "commands"
            ? [
                ...shared.map((n, i) => `import { main as c${i} } from "./commands/${n}";`),
                `export const commands = { ${shared.map((n, i) => `${JSON.stringify(n)}: c${i}`).join(", ")} };`,
                ...hooks,
              ].join("\n")
            : [`export { main } from "./commands/${args.path}";`, ...hooks].join("\n"),
        resolveDir: join(root, "src", "cli"),
        loader: "ts",
      }));
    },
  };
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: ["src/cli/main.ts"],
      outfile: "dist/cli.js",
      banner: { js: "#!/usr/bin/env node" },
      plugins: [splitCommands],
      // require() the command bundle: a real import() would load it through the ESM loader, which first scans
      // the CommonJS source for its exports (a few ms per 100 KB)
      supported: { "dynamic-import": false },
    }),
    esbuild.build({
      ...common,
      entryPoints: [...own, "commands"].map((n) => ({ in: `command:${n}`, out: n })),
      outdir: "dist/cli",
      plugins: [commandEntry],
    }),
  );
}
for (const f of walk("src").filter((f) => f.endsWith(".worker.ts"))) {
  const name = f
    .split("/")
    .pop()
    .replace(/\.worker\.ts$/, "-worker");
  builds.push(esbuild.build({ ...common, entryPoints: [f], outfile: `dist/${name}.js` }));
}
// The spawner (#24): the small process the extension host forks through (src/core/platform/spawner-client.ts).
if (existsSync("src/core/platform/spawner-main.ts")) {
  builds.push(
    esbuild.build({ ...common, entryPoints: ["src/core/platform/spawner-main.ts"], outfile: "dist/spawner.js" }),
  );
}
for (const f of walk("src/webview").filter((f) => f.endsWith("/main.ts"))) {
  const name = relative("src/webview", dirname(f));
  builds.push(
    esbuild.build({
      entryPoints: [f],
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "es2022",
      sourcemap: production ? false : "linked",
      minify: production,
      outfile: `dist/webview/${name}.js`,
      logLevel: "warning",
    }),
  );
}
const testEntries = [...walk("test"), ...walk("bench")].filter((f) => /\.(test|main)\.ts$/.test(f));
if (!production && testEntries.length) {
  // Built fresh each time: a test file that was moved or deleted must not keep running from a stale bundle.
  rmSync("dist-test", { recursive: true, force: true });
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: testEntries.map((f) => ({ in: f, out: f.replace(/^test\//, "").replace(/\.ts$/, "") })),
      outdir: "dist-test",
    }),
  );
}
await Promise.all(builds);

const wasm = "node_modules/sql.js/dist/sql-wasm.wasm";
for (const dir of ["dist", ...(production ? [] : ["dist-test"])]) {
  mkdirSync(dir, { recursive: true });
  if (existsSync(wasm)) copyFileSync(wasm, join(dir, "sql-wasm.wasm"));
}
if (existsSync("dist/cli.js")) chmodSync("dist/cli.js", 0o755);
if (existsSync("node_modules/@vscode/codicons/dist")) {
  mkdirSync("dist/codicons", { recursive: true });
  for (const f of ["codicon.css", "codicon.ttf"])
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
}
console.log(`built: ${builds.length} bundles${production ? " (production)" : ""}`);
