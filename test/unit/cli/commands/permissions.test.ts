import assert from "node:assert/strict";
import { test } from "node:test";
import { main } from "../../../../src/cli/commands/permissions";
import { PermissionStore } from "../../../../src/core/acp/permission-store";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { runCommand } from "../in-process";

test("permissions list|revoke|clear read and edit the data home's rules", () =>
  withTmpDir("acp-cli-perm-", async (home) => {
    const run = (...argv: string[]) => runCommand(main, argv, { home });
    assert.match((await run("list")).out, /no remembered permissions/);
    const store = new PermissionStore(home);
    const npm = await store.remember({ agentId: "codex", kind: "execute", key: "npm test", scope: "/ws" });
    const edit = await store.remember({ agentId: "gemini", kind: "edit", key: "/ws/a.txt", scope: "*" });

    const listed = await run("list");
    assert.equal(listed.code, 0);
    assert.match(listed.out, /^ID\s+AGENT\s+KIND\s+SCOPE\s+SINCE\s+RULE/);
    assert.match(listed.out, new RegExp(`${npm.id}\\s+codex\\s+execute\\s+/ws\\s+.*npm test`));
    assert.match(listed.out, new RegExp(`${edit.id}\\s+gemini\\s+edit\\s+everywhere\\s+.*/ws/a.txt`));
    const json = JSON.parse((await run("list", "--format", "json")).out);
    assert.deepEqual(
      json.map((r: { id: string; key: string }) => [r.id, r.key]),
      [
        [npm.id, "npm test"],
        [edit.id, "/ws/a.txt"],
      ],
    );

    const bad = await run("revoke", "nope");
    assert.equal(bad.code, 2);
    assert.match(bad.err, /no remembered permission nope/);
    const revoked = await run("revoke", npm.id, "--format", "json");
    assert.deepEqual(
      JSON.parse(revoked.out).map((r: { id: string }) => r.id),
      [npm.id],
    );
    assert.deepEqual(
      (await store.rules()).map((r) => r.id),
      [edit.id],
      "another process's store sees the change",
    );
    assert.match((await run("clear")).out, /gemini/);
    assert.deepEqual(await store.rules(), []);
  }));
