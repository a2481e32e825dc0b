// `acp-threads run --file PATH[:L1-L2] --image PATH`: the first prompt carries the same blocks the editor's
// prompt box makes (the stdio fake agent's "context" scenario lists the blocks it received).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { contextBlocks, contextWorkspace } from "../../../fixtures/cli/context-world";

const AGENT = FAKE_AGENT;
const cli = (args: string[], cwd: string) => runCli(args, { home: join(cwd, "home"), cwd });
const workspace = contextWorkspace;

test("--file and --image: embedded resources and an image for an agent that takes them", () =>
  withTmpDir("acp-cli-ctx-", async (dir) => {
    workspace(dir);
    const caps = ["--env", "FAKE_AGENT_PROMPT_CAPS=image,embeddedContext"];
    const r = await cli(
      [
        "run",
        "--agent",
        AGENT,
        ...caps,
        "--file",
        "src/a.ts:2-3",
        "--file",
        "src",
        "--image",
        "shot.png",
        "context",
        "again",
      ],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = r.stdout.trim().split("echo: ");
    assert.equal(first!.trim(), contextBlocks(dir));
    assert.equal(second!.trim(), "again", "only the first prompt carries the context");
  }));

test("without embeddedContext files go as links; an image the agent cannot take is a usage error", () =>
  withTmpDir("acp-cli-ctx-", async (dir) => {
    workspace(dir);
    const links = await cli(["run", "--agent", AGENT, "--file", "src/a.ts", "context"], dir);
    assert.equal(links.code, 0, links.stderr);
    assert.match(links.stdout, new RegExp(`link file://${dir}/src/a.ts a.ts`));
    const refused = await cli(["run", "--agent", AGENT, "--image", "shot.png", "context"], dir);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /does not accept images/);
  }));

test("a missing --file or a non-image --image is refused before any agent starts", () =>
  withTmpDir("acp-cli-ctx-", async (dir) => {
    workspace(dir);
    const missing = await cli(["run", "--agent", "/nonexistent/agent", "--file", "nope.ts:3", "hi"], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--file nope\.ts:3: no such file or folder/);
    const notImage = await cli(["run", "--agent", "/nonexistent/agent", "--image", "src/a.ts", "hi"], dir);
    assert.equal(notImage.code, 2);
    assert.match(notImage.stderr, /--image src\/a\.ts: a\.ts is not a PNG, JPEG, GIF or WebP image/);
  }));
