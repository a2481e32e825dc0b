/**
 * Packaging without a public repository (#37 item 14): package.json names none (no placeholder), `npm run package`
 * takes ACP_THREADS_REPOSITORY_URL when set (packaged manifest, vsce's --baseContentUrl / --baseImagesUrl) and
 * otherwise packages a README without its screenshots; vsce prints no warning either way (package.mjs fails on
 * one). Packages the universal VSIX from the built dist/ both ways.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { repoRoot } from "../../fixtures/agent-env/index";

const ROOT = repoRoot();
interface PackageLib {
  readZip(path: string): Map<string, { data(): Buffer }>;
  readmeWithoutRepository(markdown: string): string;
  repositoryBase(url: string): { content: string; images: string };
  packagedRoots(ignore: string): string[];
}
const lib = () => import(pathToFileURL(join(ROOT, "scripts/vsix.mjs")).href) as Promise<PackageLib>;

const README = [
  "# ACP Threads",
  "",
  "![The thread panel](docs/screenshots/thread.png)",
  "",
  'Runs agents. <img src="media/demo.gif" width="400"> See [the architecture](docs/architecture.md),',
  "[the spec](https://agentclientprotocol.com) and [below](#install). ![badge](https://img.shields.io/x.svg)",
  "",
  "## Install",
  "",
].join("\n");

test("package.json names no repository: no placeholder, nothing invented", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  assert.equal(manifest.repository, undefined);
  assert.doesNotMatch(readFileSync(join(ROOT, "package.json"), "utf8"), /example\.invalid/);
});

test("without a repository the README keeps its text and absolute links, not its screenshots or relative links", async () => {
  const { readmeWithoutRepository, repositoryBase, packagedRoots } = await lib();
  assert.equal(
    readmeWithoutRepository(README),
    [
      "# ACP Threads",
      "",
      "",
      "Runs agents.  See the architecture,",
      "[the spec](https://agentclientprotocol.com) and [below](#install). ![badge](https://img.shields.io/x.svg)",
      "",
      "## Install",
      "",
    ].join("\n"),
  );
  assert.deepEqual(repositoryBase("https://github.com/o/acp-threads.git"), {
    content: "https://github.com/o/acp-threads/blob/HEAD/",
    images: "https://github.com/o/acp-threads/raw/HEAD/",
  });
  assert.deepEqual(
    repositoryBase("https://gitlab.com/o/acp-threads").images,
    "https://gitlab.com/o/acp-threads/-/raw/HEAD/",
  );
  assert.deepEqual(repositoryBase("https://code.example.org/acp-threads/"), {
    content: "https://code.example.org/acp-threads/",
    images: "https://code.example.org/acp-threads/",
  });
  assert.deepEqual(packagedRoots("**\n!package.json\n!dist/cli.js\n!media/*.css\n# x\n!LICENSE\n"), [
    "LICENSE",
    "dist",
    "media",
    "package.json",
  ]);
});

test("npm run package with and without ACP_THREADS_REPOSITORY_URL: the manifest, the README, no vsce warning", async () => {
  const { readZip } = await lib();
  const dir = mkdtempSync(join(tmpdir(), "acp-package-"));
  try {
    const readme = join(dir, "README.md");
    writeFileSync(readme, README);
    const pack = (out: string, env: Record<string, string>) => {
      const r = spawnSync(
        process.execPath,
        ["scripts/package.mjs", "--universal", "--no-build", "--out", join(dir, out), "--readme", readme],
        { cwd: ROOT, encoding: "utf8", env: { ...process.env, ACP_THREADS_REPOSITORY_URL: "", ...env } },
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /WARNING/);
      const zip = readZip(join(dir, out, `acp-threads-universal-${version()}.vsix`));
      const text = (name: string) => zip.get(name)!.data().toString("utf8");
      return { manifest: JSON.parse(text("extension/package.json")), readme: text("extension/readme.md"), r };
    };
    const none = pack("none", {});
    assert.equal(none.manifest.repository, undefined);
    assert.doesNotMatch(none.readme, /screenshots|demo\.gif|docs\/architecture/);
    assert.match(none.readme, /See the architecture,/);
    assert.match(none.r.stdout, /repository: none/);

    const url = "https://github.com/example-owner/acp-threads";
    const named = pack("named", { ACP_THREADS_REPOSITORY_URL: url });
    assert.deepEqual(named.manifest.repository, { type: "git", url });
    assert.match(
      named.readme,
      /!\[The thread panel\]\(https:\/\/github\.com\/example-owner\/acp-threads\/raw\/HEAD\/docs\/screenshots\/thread\.png\)/,
    );
    assert.match(
      named.readme,
      /\[the architecture\]\(https:\/\/github\.com\/example-owner\/acp-threads\/blob\/HEAD\/docs\/architecture\.md\)/,
    );

    // the checkout itself was not rewritten, and `vsce ls` has nothing to warn about
    assert.equal(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).repository, undefined);
    const ls = spawnSync(process.execPath, ["node_modules/@vscode/vsce/vsce", "ls"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(ls.status, 0, ls.stderr);
    assert.doesNotMatch(ls.stdout + ls.stderr, /WARNING/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function version(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}
