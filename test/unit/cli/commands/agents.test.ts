import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { test } from "node:test";
import { main as agentsMain } from "../../../../src/cli/commands/agents";
import { agentsLayout } from "../../../../src/core/registry";
import { writeHomeSettings } from "../../../../src/core/store/home-settings";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { binaryEntry, fakeAgentArchives } from "../../../fixtures/registry/archives";
import { start, type RegistryServer } from "../../../fixtures/registry/server";
import { runCommand } from "../in-process";

const skip = process.platform === "win32" ? "the fake agent's launcher is a shell script" : false;
const v1 = fakeAgentArchives("1.0.0");
const v2 = fakeAgentArchives("2.0.0");

async function withRegistry(fn: (reg: RegistryServer, home: string) => Promise<void>): Promise<void> {
  const reg = await start({ files: { [v1.tarGz.name]: v1.tarGz.bytes, [v2.zip.name]: v2.zip.bytes } });
  const fake = (version: string) =>
    version === "1.0.0"
      ? binaryEntry("fake", "1.0.0", {
          url: reg.fileUrl(v1.tarGz.name),
          cmd: "./bin/fake-agent",
          sha256: v1.tarGz.sha256,
        })
      : binaryEntry("fake", "2.0.0", { url: reg.fileUrl(v2.zip.name), cmd: "./fake-agent", sha256: v2.zip.sha256 });
  reg.setAgents([fake("1.0.0"), { id: "Broken", name: "b" }]);
  Object.assign(reg, { fake });
  try {
    await withTmpDir("acp-cli-agents-", (home) => fn(reg, home));
  } finally {
    await reg.close();
  }
}

const cli = (home: string, argv: string[], env: NodeJS.ProcessEnv = {}) => runCommand(agentsMain, argv, { home, env });

test("agents add / list / run --agent / update / remove against a local registry", { skip }, () =>
  withRegistry(async (reg, home) => {
    const env = { ACP_THREADS_REGISTRY_URL: reg.url };
    const available = await cli(home, ["list", "--available"], env);
    assert.equal(available.code, 0);
    assert.match(available.out, /^ID\s+VERSION\s+LICENSE\s+DISTRIBUTION\s+AUTH\s+STATUS\s+NAME$/m);
    assert.match(available.out, /^fake\s+1\.0\.0\s+MIT\s+binary\s+known once installed\s+Fake fake$/m);
    assert.match(available.err, /skipped invalid entry 'Broken'/);

    assert.deepEqual(await cli(home, ["list"], env), {
      code: 0,
      out: "No agents installed. 'acp-threads agents list --available' shows the registry.\n",
      err: "",
    });
    const add = await cli(home, ["add", "fake", "--registry", reg.url]);
    assert.equal(add.code, 0, add.err);
    assert.equal(add.out, "installed fake 1.0.0 (binary): acp-threads run --agent fake\n");
    assert.match(add.err, /Installing Fake fake 1\.0\.0…\n {2}downloading/);
    assert.match(add.err, /Asking Fake fake how it signs in…/);
    assert.match((await cli(home, ["add", "fake"], env)).out, /fake 1\.0\.0 is already installed/);
    // the install asked the agent: the fake one advertises no auth methods
    assert.match(
      (await cli(home, ["list", "--available"], env)).out,
      /^fake\s+1\.0\.0\s+MIT\s+binary\s+none\s+installed 1\.0\.0\s+Fake fake$/m,
    );

    const run = await runCli(["run", "--agent", "fake", "hello there"], { home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /echo: hello there/);

    reg.setAgents([(reg as unknown as { fake: (v: string) => unknown }).fake("2.0.0")]);
    const listed = await cli(home, ["list", "--format", "json"], env);
    const json = JSON.parse(listed.out) as {
      source: string;
      installed: { id: string; updateAvailable: string; auth: string[] | null }[];
    };
    assert.equal(json.source, "network");
    assert.deepEqual(
      json.installed.map((a) => [a.id, a.updateAvailable, a.auth]),
      [["fake", "2.0.0", []]],
    );
    assert.match(
      (await cli(home, ["list"], env)).out,
      /^fake\s+1\.0\.0\s+binary\s+none\s+update available: 2\.0\.0\s+Fake fake$/m,
    );
    const up = await cli(home, ["update"], env);
    assert.equal(up.code, 0, up.err);
    assert.equal(up.out, "updated fake 1.0.0 → 2.0.0\n");
    assert.equal((await cli(home, ["update", "fake"], env)).out, "fake 2.0.0 is up to date\n");

    assert.deepEqual(await cli(home, ["remove", "fake"], env), { code: 0, out: "removed fake\n", err: "" });
    assert.equal(existsSync(agentsLayout(home).agentDir("fake")), false);
  }),
);

test("agents: usage errors exit 2, unknown ids exit 1, --help exits 0", () =>
  withRegistry(async (reg, home) => {
    const env = { ACP_THREADS_REGISTRY_URL: reg.url };
    assert.equal((await cli(home, ["add"], env)).code, 2);
    assert.equal((await cli(home, ["add", "a", "b"], env)).code, 2);
    assert.equal((await cli(home, ["bogus"], env)).code, 2);
    assert.equal((await cli(home, ["list", "--nope"], env)).code, 2);
    const unknown = await cli(home, ["add", "nope"], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no agent 'nope' in the registry/);
    const broken = await cli(home, ["add", "Broken"], env);
    assert.equal(broken.code, 1);
    assert.match(broken.err, /entry 'Broken' is invalid: id 'Broken' must match/);
    assert.match((await cli(home, ["remove", "fake"], env)).err, /agent 'fake' is not installed/);
    assert.equal((await cli(home, ["update", "fake"], env)).code, 1);
    const help = await cli(home, ["add", "--help"], env);
    assert.equal(help.code, 0);
    assert.match(help.out, /--registry URL/);
    assert.match((await cli(home, ["--help"], env)).out, /list \[--available\]/);
  }));

test("agents read the home's registryUrl setting when neither --registry nor the variable is given", () =>
  withRegistry(async (reg, home) => {
    writeHomeSettings(home, { registryUrl: reg.url });
    const listed = await cli(home, ["list", "--available", "--format", "json"]);
    assert.equal(listed.code, 0, listed.err);
    const json = JSON.parse(listed.out) as { source: string; url: string; agents: { id: string }[] };
    assert.deepEqual([json.source, json.url, json.agents.map((a) => a.id)], ["network", reg.url, ["fake"]]);
  }));

test("agents list --available when the registry is down: the cache, then the snapshot, with a notice", () =>
  withRegistry(async (reg, home) => {
    const env = { ACP_THREADS_REGISTRY_URL: reg.url };
    assert.equal((await cli(home, ["list", "--available"], env)).err.includes("notice"), false);
    reg.setDown(true);
    const cached = await cli(home, ["list", "--available", "--format", "json"], env);
    assert.equal(cached.code, 0);
    assert.match(
      cached.err,
      /^acp-threads agents: notice: could not read the registry at .*HTTP 503.*using the copy of/,
    );
    assert.equal(JSON.parse(cached.out).source, "cache");
    rmSync(agentsLayout(home).cacheFile);
    const snap = await cli(home, ["list", "--available"], env);
    assert.equal(snap.code, 0);
    assert.match(snap.err, /notice: .*using the bundled snapshot/);
    assert.match(snap.out, /^gemini\s+\S+\s+Apache-2\.0\s+npx/m);
    // the snapshot's old Claude Code adapter is marked superseded by the preset's package
    assert.match(
      snap.out,
      /^claude-code-acp\s+0\.16\.0\s+.*deprecated: use @agentclientprotocol\/claude-agent-acp\s+Claude Code$/m,
    );
  }));

test(
  "agents list shows the login state only with --probe (each agent started once), JSON field authStatus",
  { skip },
  () =>
    withRegistry(async (reg, home) => {
      const env = { ACP_THREADS_REGISTRY_URL: reg.url };
      assert.equal((await cli(home, ["add", "fake"], env)).code, 0);
      // without --probe nothing is started: no LOGIN column, no authStatus field
      const plain = await cli(home, ["list", "--format", "json"], env);
      assert.equal("authStatus" in (JSON.parse(plain.out) as { installed: object[] }).installed[0]!, false);
      assert.doesNotMatch((await cli(home, ["list"], env)).out, /LOGIN/);

      const withLogin = { ...env, FAKE_AGENT_AUTH_STATUS: "Logged in as a@b.c" };
      const text = await cli(home, ["list", "--probe"], withLogin);
      assert.equal(text.code, 0, text.err);
      assert.match(text.out, /^ID\s+VERSION\s+KIND\s+AUTH\s+STATUS\s+LOGIN\s+NAME$/m);
      assert.match(text.out, /^fake\s+1\.0\.0\s+binary\s+none\s+Logged in as a@b\.c\s+Fake fake$/m);
      assert.match(text.err, /Asking Fake fake for its login state…/);
      const json = JSON.parse((await cli(home, ["list", "--probe", "--format", "json"], withLogin)).out) as {
        installed: { id: string; authStatus: unknown }[];
      };
      assert.deepEqual(json.installed[0]!.authStatus, { kind: "chat-gpt", label: "Logged in as a@b.c" });
      // an agent that reports no login state: null / "unknown"
      const none = await cli(home, ["list", "--probe", "--format", "json"], env);
      assert.equal((JSON.parse(none.out) as { installed: { authStatus: unknown }[] }).installed[0]!.authStatus, null);
      assert.match((await cli(home, ["list", "--probe"], env)).out, /^fake\s+.*\s+unknown\s+Fake fake$/m);
    }),
);
