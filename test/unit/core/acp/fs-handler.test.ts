import assert from "node:assert/strict";
import { methods } from "@agentclientprotocol/sdk";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { sliceLines } from "../../../../src/core/acp/fs-handler";
import { PathGuard } from "../../../../src/core/acp/path-guard";
import type { PermissionPolicy } from "../../../../src/core/model/agent";
import type { PermissionAsker, WorkspaceFiles } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-fs-", fn);

/** Runs one turn whose agent body is `body`; returns the agent's text output. */
async function turn(
  cwd: string,
  body: (t: TurnContext) => Promise<string>,
  opts: { policy?: PermissionPolicy; asker?: PermissionAsker; files?: WorkspaceFiles } = {},
) {
  const rt = startFake(
    {
      prompt: async (t) => {
        let text: string;
        try {
          text = await body(t);
        } catch (err) {
          text = `error: ${(err as Error).message}`;
        }
        await t.say(text);
        return "end_turn";
      },
    },
    { cwd, permissionPolicy: opts.policy ?? "approve-all", asker: opts.asker, files: opts.files },
  );
  try {
    const { sessionId } = await rt.ensureSession();
    return outputText(await collect(rt.runTurn(sessionId, "go")));
  } finally {
    await rt.close();
  }
}

const read =
  (path: string, extra: { line?: number; limit?: number } = {}) =>
  async ({ client, sessionId }: TurnContext) =>
    (await client.request(methods.client.fs.readTextFile, { sessionId, path, ...extra })).content;

test("sliceLines takes a 1-based line and a line limit", () => {
  const text = "a\nb\nc\nd";
  assert.equal(sliceLines(text), text);
  assert.equal(sliceLines(text, 2), "b\nc\nd");
  assert.equal(sliceLines(text, 2, 2), "b\nc");
  assert.equal(sliceLines(text, null, 1), "a");
  assert.equal(sliceLines(text, 9, 1), "");
});

test("fs/read_text_file returns the requested lines and an empty string for a missing file", () =>
  withTmp(async (ws) => {
    await writeFile(join(ws, "f.txt"), "one\ntwo\nthree\n");
    assert.equal(await turn(ws, read(join(ws, "f.txt"), { line: 2, limit: 1 })), "two");
    assert.equal(await turn(ws, read(join(ws, "missing.txt"))), "");
  }));

test("reads that escape the workspace by .., by symlink or by absolute path are refused", () =>
  withTmp(async (root) => {
    const ws = join(root, "ws");
    const outside = join(root, "outside");
    await mkdir(ws);
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), "secret");
    await symlink(outside, join(ws, "link"));
    for (const path of [
      join(ws, "..", "outside", "secret.txt"),
      join(ws, "link", "secret.txt"),
      join(outside, "secret.txt"),
      join(ws, "link", "new", "file.txt"),
      "relative.txt",
    ]) {
      const out = await turn(ws, read(path));
      assert.match(out, /^error: .*(outside the workspace|must be absolute)/, path);
    }
  }));

test("the path guard accepts new files under a root and paths that normalize back inside", async () => {
  await withTmp(async (ws) => {
    const guard = new PathGuard([ws]);
    assert.equal(await guard.check(join(ws, "new", "deep", "file.txt")), join(ws, "new", "deep", "file.txt"));
    assert.equal(await guard.check(join(ws, "a", "..", "b.txt")), join(ws, "b.txt"));
    await assert.rejects(guard.check(join(ws, "..", "x")), /outside the workspace/);
  });
});

test("fs/write_text_file creates parent folders and passes what the agent last read", () =>
  withTmp(async (ws) => {
    const target = join(ws, "a", "b", "c.txt");
    const writes: [string, string, string | undefined][] = [];
    const files: WorkspaceFiles = {
      readText: async () => "before",
      writeText: async (p, c, last) => void writes.push([p, c, last]),
    };
    await turn(
      ws,
      async ({ client, sessionId }) => {
        await client.request(methods.client.fs.readTextFile, { sessionId, path: target });
        await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "after" });
        return "ok";
      },
      { files },
    );
    assert.deepEqual(writes, [[target, "after", "before"]]);

    await turn(
      ws,
      async ({ client, sessionId }) => (
        await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "disk" }),
        "ok"
      ),
    );
    assert.equal(await readFile(target, "utf8"), "disk");
  }));

test("a write right after an approved edit permission is not asked again", () =>
  withTmp(async (ws) => {
    const target = join(ws, "x.txt");
    let asked = 0;
    const asker: PermissionAsker = {
      ask: async (p) => (asked++, p.request.options.find((o) => o.kind === "allow_once")!.optionId),
    };
    const out = await turn(
      ws,
      async ({ client, sessionId }) => {
        const res = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: {
            toolCallId: "w",
            kind: "edit",
            title: "Write x",
            content: [{ type: "diff", path: target, oldText: null, newText: "hi" }],
          },
          options: [
            { optionId: "y", name: "Yes", kind: "allow_once" },
            { optionId: "n", name: "No", kind: "reject_once" },
          ],
        });
        await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "hi" });
        return res.outcome.outcome === "selected" ? res.outcome.optionId : "cancelled";
      },
      { policy: "ask", asker },
    );
    assert.equal(out, "y");
    assert.equal(asked, 1);
    assert.equal(await readFile(target, "utf8"), "hi");
  }));

test("an unrequested write goes through the policy: denied without an asker, the file untouched", () =>
  withTmp(async (ws) => {
    const target = join(ws, "keep.txt");
    await writeFile(target, "original");
    const out = await turn(
      ws,
      async ({ client, sessionId }) => (
        await client.request(methods.client.fs.writeTextFile, { sessionId, path: target, content: "x" }),
        "wrote"
      ),
      { policy: "approve-reads" },
    );
    assert.match(out, /^error: .*not allowed/);
    assert.equal(await readFile(target, "utf8"), "original");
  }));

test("deny-all refuses reads too", () =>
  withTmp(async (ws) => {
    await writeFile(join(ws, "f.txt"), "x");
    assert.match(await turn(ws, read(join(ws, "f.txt")), { policy: "deny-all" }), /^error: .*deny-all/);
  }));
