import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { cleanEnv, makeRunDir, prepareAgentEnv } from "../../fixtures/agent-env/index";

test("cleanEnv drops API keys, agent settings and proxies but keeps PATH", () => {
  const env = cleanEnv({
    PATH: "/bin",
    OPENAI_API_KEY: "sk-x",
    ANTHROPIC_BASE_URL: "u",
    GITHUB_TOKEN: "t",
    https_proxy: "p",
    CLAUDECODE: "1",
    LANG: "C",
  });
  assert.deepEqual(env, { PATH: "/bin", LANG: "C" });
});

test("codex environments refuse a run dir under the system temp dir", () => {
  assert.throws(
    () =>
      prepareAgentEnv("codex-acp", { modelUrl: "http://127.0.0.1:1", workspace: "/w", runDir: join(tmpdir(), "x") }),
    /use makeRunDir/,
  );
});

test("each agent gets an isolated home, its model config and no inherited secrets", () => {
  const runDir = makeRunDir("unit-");
  const workspace = join(runDir, "ws");
  mkdirSync(workspace);
  const prev = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = "sk-real";
  try {
    const codex = prepareAgentEnv("codex-acp", { modelUrl: "http://127.0.0.1:9999", workspace, runDir });
    assert.equal(codex.env.OPENAI_API_KEY, undefined);
    assert.equal(codex.env.HOME, join(runDir, "home"));
    const toml = readFileSync(join(codex.env.CODEX_HOME, "config.toml"), "utf8");
    assert.match(toml, /approval_policy = "untrusted"/);
    assert.match(toml, /base_url = "http:\/\/127.0.0.1:9999\/v1"/);
    assert.ok(toml.includes(`[projects.${JSON.stringify(workspace)}]`));
    const exec = prepareAgentEnv("codex-exec", { modelUrl: "http://127.0.0.1:9999", workspace, runDir });
    assert.deepEqual(exec.args, ["exec", "--skip-git-repo-check"]);
    const oc = prepareAgentEnv("opencode", { modelUrl: "http://127.0.0.1:9999", workspace, runDir });
    const json = JSON.parse(readFileSync(join(oc.env.XDG_CONFIG_HOME, "opencode", "opencode.json"), "utf8"));
    assert.deepEqual(json.permission, { edit: "ask", bash: "ask" });
    assert.equal(oc.env.PWD, workspace);
    const claude = prepareAgentEnv("claude-agent-acp", { modelUrl: "http://127.0.0.1:9999", workspace, runDir });
    assert.equal(claude.vars.ANTHROPIC_BASE_URL, "http://127.0.0.1:9999");
    assert.equal(
      claude.transcripts.claudeProject,
      join(runDir, "home", ".claude", "projects", workspace.replace(/[^a-zA-Z0-9]/g, "-")),
    );
    assert.deepEqual(prepareAgentEnv("gemini", { modelUrl: "u", workspace, runDir }).args, ["--acp"]);
  } finally {
    if (prev === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = prev;
    rmSync(runDir, { recursive: true, force: true });
  }
});
