import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { main } from "../../../../src/cli/commands/permissions";
import { PermissionStore } from "../../../../src/core/acp/permission-store";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { FIXTURES } from "../../../fixtures/fake-agents/hostile";
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

test("permissions add writes readable rules; check prints the decision the gate would make and its rule", () =>
  withTmpDir("acp-cli-perm-", async (home) => {
    const ws = join(home, "ws");
    await mkdir(ws);
    const run = (...argv: string[]) => runCommand(main, argv, { home, cwd: ws });
    const check = async (...argv: string[]) => JSON.parse((await run("check", ...argv, "--format", "json")).out);

    assert.deepEqual(await check("execute", "npm test"), {
      decision: "ask",
      rule: null,
      reason: "the approve-reads policy asks for execute",
      outside: [],
    });
    const added = await run("add", "execute", "npm run *", "--format", "json");
    assert.equal(added.code, 0, added.err);
    assert.equal(JSON.parse(added.out)[0].rule, 'allow execute "npm run *"');
    assert.equal((await run("add", "--deny", "--scope", ".", "execute", "npm run publish")).code, 0);
    assert.equal((await run("add", "--ask", "--agent", "codex", "edit", "**/.env")).code, 0);

    assert.deepEqual(await check("execute", "npm run build"), {
      decision: "allow",
      rule: 'allow execute "npm run *"',
      reason: "allowed by rule: npm run *",
      outside: [],
    });
    assert.equal((await check("execute", "npm run build && rm -rf ~")).decision, "ask", "the wildcard stops at &&");
    assert.equal((await check("execute", "npm run publish")).rule, 'deny execute "npm run publish"');
    assert.equal((await check("edit", ".env", "--agent", "codex")).decision, "ask");
    assert.equal((await check("edit", ".env", "--agent", "gemini", "--permission", "approve-all")).decision, "allow");
    const outside = await check("edit", "/etc/hosts", "--permission", "approve-all");
    assert.deepEqual(
      [outside.decision, outside.reason, outside.outside],
      ["ask", "outside the workspace", ["/etc/hosts"]],
    );
    const text = await run("check", "execute", "npm run build");
    assert.equal(text.out, 'allow: allowed by rule: npm run *\n  rule: allow execute "npm run *"\n');

    const listed = await run("list");
    assert.match(listed.out, /any\s+execute\s+everywhere\s+.*allow execute "npm run \*"/);
    assert.match(listed.out, new RegExp(`any\\s+execute\\s+${ws}\\s+.*deny execute "npm run publish"`));
    assert.match(listed.out, /codex\s+edit\s+everywhere\s+.*ask edit "\*\*\/\.env"/);

    for (const bad of [
      ["add", "execute", "*"],
      ["add", "edit", "/**"],
      ["add", "--deny", "--ask", "execute", "x"],
      ["add", "execute"],
    ]) {
      const r = await run(...bad);
      assert.equal(r.code, 2, bad.join(" "));
    }
    assert.equal((await run("clear")).code, 0);
    assert.equal((await check("execute", "npm run build")).rule, null);
  }));

test("headless, run refuses a request outside the workspace under approve-all and prints why", () =>
  withTmpDir("acp-cli-perm-", async (home) => {
    const agent = `${process.execPath} ${join(FIXTURES, "hostile-agent.main.js")}`;
    const ask = { title: "Write ~/.bashrc", kind: "edit", rawInput: { file_path: "~/.bashrc" } };
    const res = await runCli(
      ["run", "--agent", agent, "--permission", "approve-all", `script ${JSON.stringify([{ ask }])}`],
      {
        home,
      },
    );
    assert.match(res.stdout, /^no$/m, "the agent was answered no");
    assert.match(
      res.stdout + res.stderr,
      /\[permission\] Write ~\/\.bashrc: denied \(policy: refused: outside the workspace \(nobody can be asked\)\)/,
    );
  }));
