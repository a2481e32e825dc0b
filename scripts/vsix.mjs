// What goes into each VSIX and how to check a built one. Used by scripts/package.mjs (which checks every
// package it builds) and by the unit tests test/unit/scripts/vsix.test.ts and package.test.ts.
//
// Native code is node-pty's (node-sqlite3-wasm is pure WASM). A platform VSIX carries exactly the files of
// its target and nothing of the others; the universal VSIX carries none (exec mode and agent terminals fall
// back to pipes there, with a notice). Where the files come from:
//   - node_modules/node-pty/build/Release/pty.node: compiled by `npm ci` on this machine; its target is read
//     off the binary (ELF machine, musl or glibc), so an arm64 or Alpine machine packages its own target;
//   - node_modules/node-pty/prebuilds/<target>/: node-pty's N-API prebuilds for darwin-x64, darwin-arm64,
//     win32-x64, win32-arm64 (debug symbols, *.pdb, left out).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";

export const PTY_DIR = "node_modules/node-pty";
export const PREBUILT_TARGETS = ["darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];
/** Every VS Code target name (vsce's list), for the checks and the messages. */
export const ALL_TARGETS = [
  "linux-x64",
  "linux-arm64",
  "linux-armhf",
  "alpine-x64",
  "alpine-arm64",
  "darwin-x64",
  "darwin-arm64",
  "win32-x64",
  "win32-arm64",
];

/** The target a native binary was built for (from its header), or undefined when it is not one. */
export function nativeTarget(buf) {
  if (buf.length < 64) return undefined;
  // ELF: e_machine at 18 (little-endian); musl-linked objects name libc.musl in their dynamic section.
  if (buf.readUInt32BE(0) === 0x7f454c46) {
    const machine = { 0x3e: "x64", 0xb7: "arm64", 0x28: "armhf" }[buf.readUInt16LE(18)];
    if (!machine) return undefined;
    const musl = buf.includes("libc.musl");
    return `${musl ? "alpine" : "linux"}-${machine}`;
  }
  // Mach-O 64-bit, little-endian: cputype at 4.
  if (buf.readUInt32LE(0) === 0xfeedfacf) {
    return { 0x01000007: "darwin-x64", 0x0100000c: "darwin-arm64" }[buf.readUInt32LE(4)];
  }
  // PE: "MZ", e_lfanew at 0x3c, "PE\0\0", then the machine.
  if (buf.toString("latin1", 0, 2) === "MZ") {
    const pe = buf.readUInt32LE(0x3c);
    if (pe + 6 > buf.length || buf.readUInt32BE(pe) !== 0x50450000) return undefined;
    return { 0x8664: "win32-x64", 0xaa64: "win32-arm64" }[buf.readUInt16LE(pe + 4)];
  }
  return undefined;
}

/** Paths of node-pty's native files (relative to the extension root) that a file list contains. */
export function isNativeFile(path) {
  return (
    path.startsWith(`${PTY_DIR}/build/`) ||
    path.startsWith(`${PTY_DIR}/prebuilds/`) ||
    /\.(node|dll|exe|pdb|so|dylib)$/.test(path) ||
    /(^|\/)spawn-helper$/.test(path)
  );
}

function filesUnder(root, rel) {
  const out = [];
  for (const name of readdirSync(join(root, rel))) {
    const p = `${rel}/${name}`;
    if (statSync(join(root, p)).isDirectory()) out.push(...filesUnder(root, p));
    else out.push(p);
  }
  return out;
}

/**
 * The targets this checkout can package, each with its native files (relative paths), plus why the others
 * cannot be: `{ targets: Map<target, string[]>, missing: Map<target, reason> }`.
 */
export function availableTargets(root) {
  const targets = new Map();
  const local = `${PTY_DIR}/build/Release/pty.node`;
  let localTarget;
  try {
    localTarget = nativeTarget(readFileSync(join(root, local)));
  } catch {
    // not compiled here
  }
  if (localTarget) targets.set(localTarget, [local]);
  for (const target of PREBUILT_TARGETS) {
    const dir = `${PTY_DIR}/prebuilds/${target}`;
    let files = [];
    try {
      files = filesUnder(root, dir).filter((f) => !f.endsWith(".pdb"));
    } catch {
      // this node-pty version has no prebuild for it
    }
    if (files.length && !targets.has(target)) targets.set(target, files.sort());
  }
  const missing = new Map();
  for (const t of ALL_TARGETS) {
    if (targets.has(t)) continue;
    missing.set(
      t,
      t.startsWith("linux") || t.startsWith("alpine")
        ? "node-pty ships no prebuild for it and this machine compiled it for " + (localTarget ?? "nothing")
        : "no node-pty prebuild in this install",
    );
  }
  return { targets, missing };
}

/** Lines appended to .vscodeignore for a target: its native files, nothing else. */
export function ignoreLinesFor(files) {
  return files.map((f) => `!${f}`);
}

/** Entries of a zip file: name → { mode, size, data() } (stored and deflated entries; enough for a VSIX). */
export function readZip(path) {
  const buf = readFileSync(path);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${path}: not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: bad central directory`);
    const method = buf.readUInt16LE(at + 10);
    const csize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const mode = buf.readUInt32LE(at + 38) >>> 16;
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLen);
    const data = () => {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const raw = buf.subarray(start, start + csize);
      return method === 0 ? raw : inflateRawSync(raw);
    };
    entries.set(name, { mode, size, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Problems with a built VSIX for `target` ("universal" for none): the bundles are there, the manifest names
 * the target, the native files are exactly `expected` (paths relative to the extension root) and each one's
 * header matches the target; macOS's spawn-helper is executable. Returns a list of messages (empty = good).
 */
export function checkVsix(path, target, expected, { repository } = {}) {
  const entries = readZip(path);
  const problems = [];
  const ext = (p) => `extension/${p}`;
  const bundles = [
    "dist/extension.js",
    "dist/cli.js",
    "dist/cli/recall.js",
    "dist/engine-worker.js",
    "dist/cli/host.js",
    "dist/engine-process-worker.js",
    "dist/catalog-worker.js",
    "dist/spawner.js",
    "dist/webview/thread.js",
  ];
  for (const bundle of [...bundles, "package.json"]) {
    if (!((entries.get(ext(bundle))?.size ?? 0) > 100)) problems.push(`${bundle} is missing or empty`);
  }
  // the license and icon the Marketplace and Open VSX show (vsce names the license LICENSE.txt in the package)
  for (const f of ["LICENSE.txt", "media/icon.png"]) if (!entries.has(ext(f))) problems.push(`${f} is missing`);
  const manifest = entries.get("extension.vsixmanifest")?.data().toString("utf8") ?? "";
  // the repository is the one given to the packaging, or none (never a placeholder)
  const pkg = JSON.parse(entries.get(ext("package.json"))?.data().toString("utf8") ?? "{}");
  const url = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  if (url !== repository)
    problems.push(`the packaged manifest's repository is ${url ?? "none"}, expected ${repository ?? "none"}`);
  // vsce stores it as readme.md
  const readmeName = [...entries.keys()].find((n) => n.toLowerCase() === "extension/readme.md");
  const readme = readmeName ? entries.get(readmeName).data().toString("utf8") : undefined;
  if (readme === undefined) problems.push("README.md is missing");
  else if (!repository && readme !== readmeWithoutRepository(readme))
    problems.push("README.md links or shows files of a repository the package does not name");
  const named = /TargetPlatform="([^"]+)"/.exec(manifest)?.[1] ?? "universal";
  if (named !== target) problems.push(`the manifest says target ${named}, expected ${target}`);
  const natives = [...entries.keys()]
    .filter((n) => n.startsWith("extension/"))
    .map((n) => n.slice("extension/".length))
    .filter(isNativeFile)
    .sort();
  // a dependency's tests and source maps are dead weight users download (node-pty ships 25 of them)
  for (const n of entries.keys())
    if (/^extension\/node_modules\/.*(\.test\.js|\.map)$/.test(n)) problems.push(`${n.slice(10)} should not ship`);
  const want = [...expected].sort();
  for (const f of natives) if (!want.includes(f)) problems.push(`unexpected native file ${f}`);
  for (const f of want) if (!natives.includes(f)) problems.push(`missing native file ${f}`);
  for (const f of natives) {
    const entry = entries.get(ext(f));
    if (/\.(node|dll|exe)$|spawn-helper$/.test(f)) {
      const built = nativeTarget(entry.data());
      if (built !== target) problems.push(`${f} is built for ${built ?? "an unknown platform"}, not ${target}`);
    }
    if (f.endsWith("spawn-helper") && (entry.mode & 0o111) !== 0o111)
      problems.push(`${f} is not executable in the package (mode ${(entry.mode & 0o777).toString(8)})`);
  }
  return problems;
}

/** The variable that names the public repository (none exists yet: none may be invented). */
export const REPOSITORY_ENV = "ACP_THREADS_REPOSITORY_URL";

/**
 * The repository `url` as vsce's `--baseContentUrl` / `--baseImagesUrl` (README links and screenshots resolve
 * there): a GitHub or GitLab repository's files of its default branch, any other URL as given.
 */
export function repositoryBase(url) {
  const u = url.replace(/\.git$/, "").replace(/\/+$/, "");
  if (/^https:\/\/(github|gitlab)\.com\/[^/]+\/[^/]+$/.test(u)) {
    const sep = u.includes("gitlab.com") ? "/-" : "";
    return { content: `${u}${sep}/blob/HEAD/`, images: `${u}${sep}/raw/HEAD/` };
  }
  return { content: `${u}/`, images: `${u}/` };
}

/** Whether a Markdown or HTML link target is relative (resolved against the repository, which may not exist). */
const relative = (link) => !/^[a-z][\w+.-]*:/i.test(link) && !link.startsWith("#");

/**
 * The README that goes into a VSIX packaged without a repository URL: screenshots (relative images, Markdown or
 * `<img>`) are left out and relative links keep only their text, since nothing can resolve them (vsce refuses
 * them then). Absolute links and anchors stay.
 */
export function readmeWithoutRepository(markdown) {
  return markdown
    .replace(/^[ \t]*!\[[^\]]*\]\(([^)\s]+)[^)]*\)[ \t]*\r?\n/gm, (m, link) => (relative(link) ? "" : m))
    .replace(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/g, (m, link) => (relative(link) ? "" : m))
    .replace(/<(?:img|video)\b[^>]*\bsrc=["']([^"']+)["'][^>]*>/gi, (m, link) => (relative(link) ? "" : m))
    .replace(/\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (m, text, link) => (relative(link) ? text : m));
}

/** The top-level files and folders a `.vscodeignore` of include rules (`!path`) lets into the package. */
export function packagedRoots(ignoreText) {
  const roots = new Set();
  for (const line of ignoreText.split("\n")) {
    const m = /^!([^/*\s]+)/.exec(line.trim());
    if (m) roots.add(m[1]);
  }
  return [...roots].sort();
}
