// Builds the VSIXs the way Marketplace extensions ship native code: one package per platform
// (`vsce package --target <t>`, each with only its own node-pty binaries) plus a universal one without native
// code (VS Code installs it where no platform package exists; terminals fall back to pipes there). Every
// package is opened again and checked (scripts/vsix.mjs) before this exits 0.
//
//   npm run package        -> dist/acp-threads.vsix, the package for this machine (linux-x64 here)
//   npm run package:all    -> dist/vsix/acp-threads-<target>-<version>.vsix for every target we can supply,
//                             plus acp-threads-universal-<version>.vsix, and a size table
//   node scripts/package.mjs --target darwin-arm64 [--target ...] [--universal] [--no-build] [--out DIR] [--readme FILE]
//
// The repository: there is no public one yet, and package.json names none. ACP_THREADS_REPOSITORY_URL, when set,
// goes into the packaged manifest and becomes vsce's --baseContentUrl / --baseImagesUrl (README links and
// screenshots resolve there); unset, the package names no repository and its README leaves the screenshots out.
// vsce packages a staging folder (the manifest and README for this package, links to what .vscodeignore lets in),
// so the checkout's package.json and README.md are never rewritten.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, relative, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  availableTargets,
  checkVsix,
  ignoreLinesFor,
  nativeTarget,
  packagedRoots,
  readmeWithoutRepository,
  repositoryBase,
  REPOSITORY_ENV,
} from "./vsix.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const { values: opt } = parseArgs({
  options: {
    all: { type: "boolean", default: false },
    host: { type: "boolean", default: false },
    target: { type: "string", multiple: true, default: [] },
    universal: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    out: { type: "string" },
    // the README to package (default README.md; the packaging test gives one with screenshots)
    readme: { type: "string", default: "README.md" },
  },
});
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const { version, name } = manifest;
const repository = process.env[REPOSITORY_ENV]?.trim() || undefined;
if (repository && !/^https:\/\/[^\s/]+\/\S+$/.test(repository))
  throw new Error(`${REPOSITORY_ENV} must be the repository's https:// URL, not ${JSON.stringify(repository)}`);
const { targets, missing } = availableTargets(root);

/** This machine's target: the one its compiled node-pty is for. */
function hostTarget() {
  try {
    return nativeTarget(readFileSync("node_modules/node-pty/build/Release/pty.node"));
  } catch {
    return undefined;
  }
}

const wanted = opt.all ? [...targets.keys()] : [...opt.target];
if (opt.host) {
  const host = hostTarget();
  if (!host) throw new Error("node-pty is not compiled on this machine (node_modules/node-pty/build/Release)");
  wanted.push(host);
}
const universal = opt.all || opt.universal || wanted.length === 0;
for (const t of wanted) {
  if (!targets.has(t)) throw new Error(`cannot package ${t}: ${missing.get(t) ?? "not a VS Code target"}`);
}

if (!opt["no-build"]) {
  const r = spawnSync(process.execPath, ["scripts/build.mjs", "--production"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// node-pty 1.1 publishes macOS's spawn-helper without its execute bit; the zip keeps the file's mode.
for (const t of ["darwin-x64", "darwin-arm64"]) {
  for (const f of targets.get(t) ?? []) if (f.endsWith("spawn-helper")) chmodSync(f, statSync(f).mode | 0o755);
}

const baseIgnore = readFileSync(".vscodeignore", "utf8");
const scratch = join(tmpdir(), `acp-threads-package-${process.pid}`);
mkdirSync(scratch, { recursive: true });

/** The folder vsce packages: this package's manifest and README, links to the checkout's files it ships. */
function stage() {
  const dir = join(scratch, "stage");
  mkdirSync(dir);
  const own = { ...manifest, ...(repository ? { repository: { type: "git", url: repository } } : {}) };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(own, null, 2)}\n`);
  const readme = readFileSync(opt.readme, "utf8");
  writeFileSync(join(dir, "README.md"), repository ? readme : readmeWithoutRepository(readme));
  for (const entry of packagedRoots(baseIgnore))
    if (entry !== "package.json" && entry !== "README.md") symlinkSync(join(root, entry), join(dir, entry));
  return dir;
}
const staged = stage();
const base = repository ? repositoryBase(repository) : undefined;
const outDir = opt.out ?? (opt.host && !opt.all && wanted.length === 1 && !universal ? "dist" : "dist/vsix");
mkdirSync(outDir, { recursive: true });

/** One `vsce package` run with the target's ignore file; resolves when it is written. */
function vsce(target, files, out) {
  const ignore = join(scratch, `${target}.vscodeignore`);
  writeFileSync(
    ignore,
    `${baseIgnore.trimEnd()}\n# ${target}: its node-pty binaries\n${ignoreLinesFor(files).join("\n")}\n`,
  );
  const vsceJs = join(root, "node_modules/@vscode/vsce/vsce");
  const args = [vsceJs, "package", "--ignoreFile", ignore, "-o", resolvePath(out), "--follow-symlinks"];
  if (target !== "universal") args.push("--target", target);
  if (base) args.push("--baseContentUrl", base.content, "--baseImagesUrl", base.images);
  else args.push("--allow-missing-repository");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: staged, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    // vsce's WARNING lines (a missing license, repository, ...) are problems of the package, not noise to hide
    child.on("close", (code) =>
      code === 0
        ? resolve(output.split("\n").filter((l) => /\bWARNING\b/.test(l)))
        : reject(new Error(`vsce package (${target}) failed:\n${output}`)),
    );
  });
}

const jobs = wanted.map((t) => [t, targets.get(t)]);
if (universal) jobs.push(["universal", []]);
const built = [];
try {
  // vsce spends most of its time waiting (npm list, zip I/O): three at a time.
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const [target, files] = job;
      const started = Date.now();
      // `npm run package` keeps its one well-known path (the e2e and `npm start` install it).
      const single = opt.host && !opt.all && jobs.length === 1;
      const out = single ? join(outDir, `${name}.vsix`) : join(outDir, `${name}-${target}-${version}.vsix`);
      const warnings = await vsce(target, files, out);
      const problems = [...warnings.map((w) => `vsce: ${w.trim()}`), ...checkVsix(out, target, files, { repository })];
      built.push({ target, out, size: statSync(out).size, files: files.length, ms: Date.now() - started, problems });
    }
  };
  await Promise.all([worker(), worker(), worker()]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
built.sort((a, b) => jobs.findIndex(([t]) => t === a.target) - jobs.findIndex(([t]) => t === b.target));
const failed = built.some((b) => b.problems.length);

console.log("\nTARGET          SIZE      NATIVE FILES  TIME    CHECK   FILE");
for (const b of built) {
  const size = `${(b.size / 1024).toFixed(0)} KB`;
  const check = b.problems.length ? "FAILED" : "ok";
  const line = `${b.target.padEnd(15)} ${size.padEnd(9)} ${String(b.files).padEnd(13)} ${`${(b.ms / 1000).toFixed(1)} s`.padEnd(7)} ${check.padEnd(7)} ${relative(root, b.out)}`;
  console.log(line);
  for (const p of b.problems) console.log(`    ${p}`);
}
console.log(
  repository
    ? `\nrepository: ${repository} (README links and images resolve there)`
    : `\nrepository: none (${REPOSITORY_ENV} is unset): the README's screenshots and relative links are left out`,
);
if (opt.all && missing.size) {
  console.log(`\nnot built (VS Code installs the universal package there): ${[...missing.keys()].join(", ")}`);
}
process.exit(failed ? 1 : 0);
