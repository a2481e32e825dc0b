// Builds every bundle with esbuild. Entry points are found by convention so new files need no edit here:
//   src/vscode/extension.ts           -> dist/extension.js   (cjs, vscode + node-pty external)
//   src/cli/main.ts                   -> dist/cli.js         (cjs, with a shebang)
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
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: ["src/cli/main.ts"],
      outfile: "dist/cli.js",
      banner: { js: "#!/usr/bin/env node" },
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
