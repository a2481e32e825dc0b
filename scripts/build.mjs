// Builds every bundle with esbuild. Entry points are found by convention so new files need no edit here:
//   src/vscode/extension.ts           -> dist/extension.js   (cjs, vscode + node-pty external)
//   src/cli/main.ts                   -> dist/cli.js         (cjs, with a shebang; only the dispatcher)
//   src/cli/commands/<name>.ts        -> dist/cli/<name>.js  (cjs, one bundle per command, loaded by dist/cli.js)
//   src/**/<name>.worker.ts           -> dist/<name>-worker.js (cjs, a worker_threads entry)
//   src/webview/<name>/main.ts        -> dist/webview/<name>.js (iife, browser)
//   test/**/*.{test,main}.ts, bench/**/*.{test,main}.ts -> dist-test/<same path>.js (cjs)
// The ACP SDK is ESM-only; bundling turns it into CommonJS. sql.js's wasm is copied next to the bundles.
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, chmodSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const production = process.argv.includes("--production");
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
  // A CLI process compiles only the dispatcher and the one command it runs (an agent pays the start-up of
  // `acp-threads recall` on every call): main.ts's `import("./commands/x")` becomes a require of dist/cli/x.js.
  const commandsDir = "src/cli/commands";
  const splitCommands = {
    name: "split-commands",
    setup(b) {
      b.onResolve({ filter: /^\.\/commands\/[\w-]+$/ }, (args) =>
        args.importer.endsWith(join("src", "cli", "main.ts"))
          ? { path: `./cli/${args.path.slice("./commands/".length)}.js`, external: true }
          : undefined,
      );
    },
  };
  // Each command bundle has its own copy of the modules the dispatcher configures (the lock label, the PTY
  // fallback notice): it exports those hooks next to `main`, and main.ts calls the loaded bundle's ones.
  const commandEntry = {
    name: "command-entry",
    setup(b) {
      b.onResolve({ filter: /^command:/ }, (args) => ({
        path: args.path.slice("command:".length),
        namespace: "command",
      }));
      b.onLoad({ filter: /.*/, namespace: "command" }, (args) => ({
        contents: [
          `export { main } from "./commands/${args.path}";`,
          `export { setLockLabel } from "../core/store/file-lock";`,
          `export { onPtyFallback } from "../core/platform/pty";`,
        ].join("\n"),
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
      entryPoints: readdirSync(commandsDir)
        .filter((f) => f.endsWith(".ts"))
        .map((f) => ({ in: `command:${f.replace(/\.ts$/, "")}`, out: f.replace(/\.ts$/, "") })),
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
