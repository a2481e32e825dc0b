/**
 * Hostile package specs never reach npm or uv, and npm's Windows command line keeps a data home with spaces and
 * cmd.exe's special characters as one argument.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { platformOf } from "../../../../src/core/platform/host";
import { launchProgram } from "../../../../src/core/platform/shell";
import { validateAgent } from "../../../../src/core/registry";
import { npmInstall, npmInstallArgs } from "../../../../src/core/registry/install-npm";
import { uvInstall } from "../../../../src/core/registry/install-uv";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { receivedArgs } from "../../../fixtures/platform/cmd-received";

const HOSTILE_NPM = [
  "x&calc",
  'x" & calc & "',
  "x|calc",
  "%COMSPEC%",
  "--registry=http://evil.example/",
  "-g",
  "git+https://evil.example/x.git",
  "https://evil.example/x.tgz",
  "file:../x",
  "../x",
  "x@1.0.0 && calc",
  "@scope/",
  "x@>=1 <2",
  "",
];
const HOSTILE_PYTHON = ["-e .", "--index-url=http://evil.example/", "x; calc", "git+https://evil.example/x", "../x"];

const entry = (distribution: Record<string, unknown>) => ({
  id: "pkg-agent",
  name: "Pkg agent",
  version: "1.0.0",
  description: "an agent",
  distribution,
});

test("registry entries name npm and PyPI packages only: options, URLs, paths and shell characters are refused", () => {
  for (const ok of [
    "semver@7.6.3",
    "@agentclientprotocol/codex-acp@2.6.0",
    "@zed-industries/claude-code-acp@0.16.0",
    "opencode-ai",
    "pkg@^1.2.0",
    "pkg@~1.2",
    "pkg@1.x",
    "pkg@latest",
    "pkg@1.0.0-beta.1+build.5",
  ])
    assert.doesNotThrow(() => validateAgent(entry({ npx: { package: ok } })), ok);
  for (const bad of HOSTILE_NPM)
    assert.throws(() => validateAgent(entry({ npx: { package: bad } })), /npx\.package|non-empty/, bad);
  for (const ok of ["py-agent==1.4.2", "py_agent[extra,more]>=1,<2", "ruff@0.6.0", "mistral-vibe~=2.0"])
    assert.doesNotThrow(() => validateAgent(entry({ uvx: { package: ok } })), ok);
  for (const bad of HOSTILE_PYTHON)
    assert.throws(() => validateAgent(entry({ uvx: { package: bad } })), /uvx\.package/, bad);
});

test(
  "a hostile package spec that bypasses validation is still refused before npm or uv runs",
  { skip: process.platform === "win32" ? "fake tools are shell scripts" : false },
  () =>
    withTmpDir("pkg-spec-", async (dir) => {
      const bin = join(dir, "bin");
      const marker = join(dir, "tool-ran");
      await mkdir(bin);
      for (const tool of ["npm", "uv"]) {
        await writeFile(join(bin, tool), `#!/bin/sh\necho "$*" >> "${marker}"\nexit 1\n`);
        await chmod(join(bin, tool), 0o755);
      }
      const env = { PATH: bin };
      await assert.rejects(npmInstall({ package: "x&calc" }, dir, { env }), /not an npm package name/);
      await assert.rejects(npmInstall({ package: "--prefix=/" }, dir, { env }), /not an npm package name/);
      await assert.rejects(uvInstall({ package: "--index-url=http://evil.example/" }, dir, { env }), /not a Python/);
      assert.equal(existsSync(marker), false, "the installer ran");
    }),
);

/** npm 10's npm.cmd (it runs `node npm-cli.js %*`: the arguments go through a batch file's second parse). */
const NPM_CMD = [
  ":: Created by npm, please don't edit manually.",
  "@ECHO OFF",
  "SETLOCAL",
  'SET "NODE_EXE=%~dp0\\node.exe"',
  'IF NOT EXIST "%NODE_EXE%" (',
  '  SET "NODE_EXE=node"',
  ")",
  'SET "NPM_CLI_JS=%~dp0\\node_modules\\npm\\bin\\npm-cli.js"',
  '"%NODE_EXE%" "%NPM_CLI_JS%" %*',
].join("\r\n");

test("Windows: npm.cmd runs through cmd.exe with every argument quoted; a data home with spaces and & ^ % ! ( ) stays whole", () => {
  const win = platformOf("win32", { Path: "C:\\Program Files\\nodejs", ComSpec: "C:\\Windows\\system32\\cmd.exe" });
  const npm = "C:\\Program Files\\nodejs\\npm.cmd";
  for (const home of [
    "C:\\Users\\Jo Doe\\AppData\\Local\\acp-threads",
    "C:\\Users\\R&D (shared)\\100% ^done!\\acp threads",
    'C:\\Users\\x" & calc & "\\acp',
  ]) {
    const dir = `${home}\\agents\\pkg-agent\\.staging-0a1b2c3d`;
    const args = npmInstallArgs("@scope/pkg-agent@1.2.3", dir);
    const launch = launchProgram(npm, args, { platform: win, readText: () => NPM_CMD, findNode: () => null });
    assert.equal(launch.file, "C:\\Windows\\system32\\cmd.exe");
    assert.equal(launch.verbatim, true);
    assert.deepEqual(launch.args.slice(0, 3), ["/d", "/s", "/c"]);
    const line = launch.args[3]!.replace(/^"(.*)"$/s, "$1"); // `/s` strips the outer quotes
    assert.deepEqual(receivedArgs(line, 2), [npm, ...args], home);
    assert.ok(args.includes(dir), "the install folder is one argument");
  }
  assert.throws(() => npmInstallArgs("x&calc", "C:\\d"), /not an npm package name/);
  assert.throws(() => npmInstallArgs('x" & calc & "', "C:\\d"), /not an npm package name/);
});
