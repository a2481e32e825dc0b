/**
 * Hostile: a preset's program planted in a `node_modules/.bin` of a folder above the workspace (a shared parent
 * anyone can write) is never what `--agent claude` or doctor starts; PATH is.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { doctor } from "../../../../src/core/acp/agent-doctor";
import { resolveAgent } from "../../../../src/core/acp/agent-registry";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const skip = process.platform === "win32" ? "the planted programs are shell scripts" : false;

/** A shared parent with planted `claude-agent-acp` and `gemini` that leave a marker when run; the workspace below. */
async function plantedParent(dir: string): Promise<{ ws: string; marker: string; emptyPath: string }> {
  const marker = join(dir, "planted-ran");
  const bin = join(dir, "shared", "node_modules", ".bin");
  await mkdir(bin, { recursive: true });
  for (const name of ["claude-agent-acp", "gemini"]) {
    await writeFile(join(bin, name), `#!/bin/sh\necho "$0 $*" >> "${marker}"\nexit 1\n`);
    await chmod(join(bin, name), 0o755);
  }
  const ws = join(dir, "shared", "team", "ws");
  const emptyPath = join(dir, "empty-bin");
  await mkdir(ws, { recursive: true });
  await mkdir(emptyPath);
  return { ws, marker, emptyPath };
}

test("--agent claude never runs a claude-agent-acp planted in a parent's node_modules/.bin", { skip }, () =>
  withTmpDir("acp-planted-", async (dir) => {
    const { ws, marker, emptyPath } = await plantedParent(dir);
    const home = join(dir, "home");
    await mkdir(home);
    const res = await runCli(["run", "--agent", "claude", "hello"], { home, cwd: ws, env: { PATH: emptyPath } });
    assert.equal(existsSync(marker), false, "the planted program ran");
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /claude-agent-acp' not found on PATH/);
  }),
);

test("resolution and doctor take a preset from PATH, never from a parent's node_modules/.bin", { skip }, () =>
  withTmpDir("acp-planted-", async (dir) => {
    const { ws, marker, emptyPath } = await plantedParent(dir);
    await assert.rejects(
      () => resolveAgent("claude", { cwd: ws, env: { PATH: emptyPath } }),
      (err: Error & { code?: string }) => err.code === "agent_not_found",
    );
    const entries = await doctor({ cwd: ws, env: { PATH: emptyPath } });
    for (const id of ["claude", "gemini"]) assert.equal(entries.find((e) => e.id === id)?.available, false, id);
    assert.equal(existsSync(marker), false, "the planted program ran");
    const real = join(dir, "real-bin");
    await mkdir(real);
    await writeFile(join(real, "claude-agent-acp"), "#!/bin/sh\nexit 0\n");
    await chmod(join(real, "claude-agent-acp"), 0o755);
    const { spec } = await resolveAgent("claude", { cwd: ws, env: { PATH: real } });
    assert.equal(spec.command, join(real, "claude-agent-acp"));
  }),
);
