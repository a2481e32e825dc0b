// What the Marketplace and Open VSX show, checked in the repository: the license, the icon, the gallery fields,
// where the extension runs, the Getting Started walkthrough, and one version (package.json's) in every bundle.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import test from "node:test";
import { repoRoot } from "../../fixtures/agent-env/index";

const ROOT = repoRoot();
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** The categories VS Code's extension manifest schema accepts (vscode extensionsRegistry, 1.95+). */
const CATEGORIES = [
  "Programming Languages",
  "Snippets",
  "Linters",
  "Themes",
  "Debuggers",
  "Formatters",
  "Keymaps",
  "SCM Providers",
  "Other",
  "Extension Packs",
  "Language Packs",
  "Data Science",
  "Machine Learning",
  "Visualization",
  "Notebooks",
  "Education",
  "Testing",
  "AI",
  "Chat",
];

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

test("the MIT license is in the repository and packaging keeps it", () => {
  const license = readFileSync(join(ROOT, "LICENSE"), "utf8");
  assert.equal(manifest.license, "MIT");
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} ACP Threads contributors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  assert.doesNotMatch(readFileSync(join(ROOT, "scripts/package.mjs"), "utf8"), /--skip-license/);
  assert.match(readFileSync(join(ROOT, ".vscodeignore"), "utf8"), /^!LICENSE$/m);
});

test("the icon is a 128×128 PNG and the gallery fields are valid", () => {
  const png = readFileSync(join(ROOT, manifest.icon));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG");
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], "IHDR width × height");
  assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
  assert.ok(["dark", "light"].includes(manifest.galleryBanner.theme));
  assert.ok(manifest.categories.length > 0);
  for (const c of manifest.categories) assert.ok(CATEGORIES.includes(c), `${c} is not a VS Code category`);
  assert.ok(manifest.keywords.length > 0 && manifest.keywords.length <= 30, "the Marketplace keeps at most 30 tags");
});

test("the extension runs where the workspace is (agents, terminals and stores are there)", () => {
  assert.deepEqual(manifest.extensionKind, ["workspace"]);
});

test("the Getting Started walkthrough's pages exist and its buttons run contributed commands", () => {
  const commands = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
  const [walkthrough] = manifest.contributes.walkthroughs;
  assert.deepEqual(
    walkthrough.steps.map((s: { id: string }) => s.id),
    ["installAgent", "firstSession", "reviewRestore", "recall"],
  );
  for (const step of walkthrough.steps) {
    const page = join(ROOT, step.media.markdown);
    assert.ok(existsSync(page), `${step.media.markdown} exists`);
    assert.match(readFileSync(page, "utf8"), /^# /, `${step.media.markdown} starts with a heading`);
    for (const [, id] of (step.description as string).matchAll(/\(command:([\w.]+)\)/g))
      assert.ok(commands.has(id), `${id} is contributed`);
    for (const e of step.completionEvents ?? [])
      assert.ok(commands.has(e.replace(/^onCommand:/, "")), `${e} names a contributed command`);
  }
});

test("no source file writes a version number by hand; the bundles carry package.json's", () => {
  const literal = new RegExp(`["'\`]${manifest.version.replace(/\./g, "\\.")}["'\`]`);
  const offenders = walk(join(ROOT, "src"))
    .filter((f) => f.endsWith(".ts"))
    .filter((f) => literal.test(readFileSync(f, "utf8")) || /env\.ACP_THREADS_VERSION/.test(readFileSync(f, "utf8")))
    .map((f) => relative(ROOT, f));
  assert.deepEqual(offenders, [], "use VERSION from src/core/version.ts");
  const cli = spawnSync(process.execPath, [join(ROOT, "dist/cli.js"), "--version"], { encoding: "utf8" });
  assert.equal(cli.stdout, `${manifest.version}\n`, cli.stderr);
});
