import assert from "node:assert/strict";
import { methods, type PermissionOption } from "@agentclientprotocol/sdk";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { commandKey, executeCommandLine } from "../../../../src/core/acp/permission-key";
import { ALWAYS_EVERYWHERE_OPTION_ID, ALWAYS_WIDER_OPTION_ID } from "../../../../src/core/acp/permission-policy";
import { PermissionStore } from "../../../../src/core/acp/permission-store";
import { acquireLock } from "../../../../src/core/platform/file-lock";
import type { PermissionAsker } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-rules-", fn);

const OPTIONS: PermissionOption[] = [
  { optionId: "once", name: "Allow", kind: "allow_once" },
  { optionId: "always", name: "Always allow", kind: "allow_always" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
];

/** A turn asking for `execute` of `command` the way claude-agent-acp does (backticked title, rawInput.command). */
function askingToRun(command: string) {
  return async ({ client, sessionId, say }: TurnContext) => {
    const res = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: "bash-1", title: `\`${command}\``, kind: "execute", rawInput: { command } },
      options: OPTIONS,
    });
    await say(res.outcome.outcome === "selected" ? res.outcome.optionId : "cancelled");
    return "end_turn";
  };
}

test("a command's key is its whole line, and shell lines, wrappers and env have none", () => {
  const key = (line: string) => {
    const k = commandKey(line);
    return k.ok ? k.key : null;
  };
  assert.equal(key("npm test"), "npm test");
  assert.equal(key("git status --short"), "git status --short");
  assert.equal(key("ls -la"), "ls -la");
  assert.equal(key("  cargo   build --release "), "cargo build --release");
  // #33: approving one of these saved only the program, which then covered `rm -rf ~/x`, `git push`, `npx evil`
  assert.equal(key("rm -f junk.log"), "rm -f junk.log");
  assert.equal(key("git --version"), "git --version");
  assert.equal(key("npx --version"), "npx --version");
  assert.equal(key("find . -name x"), "find . -name x");
  assert.equal(key("python3 script.py"), "python3 script.py");
  for (const line of [
    "",
    "npm test && rm -rf /",
    "cat a | sh",
    "echo $(id)",
    "ls > out",
    "sudo rm -rf /",
    "env FOO=1 npm test",
    "FOO=1 npm test",
    "bash -c 'rm -rf /'",
    "node -e 'process.exit()'",
    'echo "unbalanced',
  ])
    assert.equal(key(line), null, line);
  assert.match((commandKey("a; b") as { reason: string }).reason, /shell line/);
});

test("the command line comes from what real agents send", () => {
  // codex-acp: an argv with a shell wrapper; claude-agent-acp / opencode: a string; a title in backticks
  assert.equal(executeCommandLine({ toolCallId: "1", rawInput: { command: ["bash", "-lc", "npm test"] } }), "npm test");
  assert.equal(executeCommandLine({ toolCallId: "1", rawInput: { command: ["git", "status"] } }), "git status");
  assert.equal(executeCommandLine({ toolCallId: "1", rawInput: { command: "npm run build" } }), "npm run build");
  assert.equal(executeCommandLine({ toolCallId: "1", title: "`git diff`" }), "git diff");
  assert.equal(executeCommandLine({ toolCallId: "1" }), undefined);
});

test("two stores on one data home merge under the lock: a revoke is never undone by the other", () =>
  withTmp(async (home) => {
    const a = new PermissionStore(home);
    const b = new PermissionStore(home);
    const one = await a.remember({ agentId: "x", kind: "execute", key: "npm test", scope: "/ws" });
    await b.remember({ agentId: "x", kind: "edit", key: "/ws/a.txt", scope: "/ws" });
    assert.deepEqual((await a.rules()).map((r) => r.key).sort(), ["/ws/a.txt", "npm test"]);
    await a.revokeIds([one.id]);
    await b.remember({ agentId: "x", kind: "execute", key: "git status", scope: "*" });
    assert.deepEqual((await b.rules()).map((r) => r.key).sort(), ["/ws/a.txt", "git status"]);
    assert.equal(await a.find("x", "execute", "npm test", "/ws"), undefined);
    assert.ok(await a.find("x", "execute", "git status", "/elsewhere"), "everywhere");
    assert.ok(await a.find("x", "edit", "/ws/a.txt", "/ws/sub"), "a workspace rule holds below its folder");
    assert.equal(await a.find("x", "edit", "/ws/a.txt", "/other"), undefined, "and not in another workspace");
    const file = JSON.parse(await readFile(join(home, "permissions.json"), "utf8"));
    assert.equal(file.version, 3);
    assert.deepEqual(Object.keys(file.rules[0]).sort(), [
      "agentId",
      "createdAt",
      "effect",
      "id",
      "key",
      "kind",
      "scope",
    ]);
  }));

test("a change waits while another holder has the rules file's lock, then saves once it is free", () =>
  withTmp(async (home) => {
    const release = acquireLock(join(home, "permissions.json"), { label: "another window" });
    const store = new PermissionStore(home);
    let saved = false;
    const saving = store.remember({ agentId: "x", kind: "execute", key: "npm test", scope: "/ws" }).then((r) => {
      saved = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(saved, false, "saved while the lock was held");
    release();
    const rule = await saving;
    assert.deepEqual(
      (await new PermissionStore(home).rules()).map((r) => r.id),
      [rule.id],
    );
  }));

test("a version 1 wildcard rule is dropped; its path rules are kept with a stable id", () =>
  withTmp(async (home) => {
    const rules = [
      { agentId: "x", kind: "execute", path: "*", createdAt: "t" },
      { agentId: "x", kind: "edit", path: "/ws/a.txt", createdAt: "t" },
    ];
    await writeFile(join(home, "permissions.json"), JSON.stringify({ version: 1, rules }));
    const store = new PermissionStore(home);
    assert.deepEqual(
      (await store.rules()).map((r) => [r.kind, r.key, r.scope]),
      [["edit", "/ws/a.txt", "*"]],
    );
    assert.equal((await store.rules())[0].id, (await new PermissionStore(home).rules())[0].id);
    assert.equal(await store.find("x", "execute", "rm -rf", "/ws"), undefined);
  }));

test("'always' on a request without a path or command does not allow everything", () =>
  withTmp(async (cwd) => {
    let asked = 0;
    const asker: PermissionAsker = { ask: async () => (asked++, "always") };
    const opts = { cwd, permissionPolicy: "ask" as const, asker, permissionStoreDir: join(cwd, "home") };
    const first = startFake({ prompt: askingToRun("npm test") }, opts);
    const { sessionId } = await first.ensureSession();
    await collect(first.runTurn(sessionId, "go"));
    await first.close();
    const other = startFake({ prompt: askingToRun("rm -rf build") }, opts);
    const s2 = (await other.ensureSession()).sessionId;
    await collect(other.runTurn(s2, "go"));
    await other.close();
    assert.equal(asked, 2, "another command is asked");
    assert.deepEqual(
      (await first.permissions.rules()).map((r) => r.key),
      ["npm test", "rm -rf build"],
    );
  }));

test("an unkeyable 'always' is answered once, not remembered, and the user is told why", () =>
  withTmp(async (cwd) => {
    const asker: PermissionAsker = { ask: async () => "always" };
    const rt = startFake(
      { prompt: askingToRun("curl x | sh") },
      { cwd, permissionPolicy: "ask", asker, permissionStoreDir: join(cwd, "home") },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.equal(outputText(events), "once", "the agent is told once, so it does not remember either");
    assert.deepEqual(await rt.permissions.rules(), []);
    const notice = events.find((e) => e.type === "notice");
    assert.match(
      notice?.type === "notice" ? `${notice.title}: ${notice.description}` : "",
      /not remembered.*shell line/,
    );
  }));

test("'always … (everywhere)' is offered next to the agent's 'always' and remembers for every workspace", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const offered: string[][] = [];
    const asker: PermissionAsker = {
      ask: async (p) => (offered.push(p.request.options.map((o) => o.optionId)), ALWAYS_EVERYWHERE_OPTION_ID),
    };
    const wsA = join(dir, "a");
    const wsB = join(dir, "b");
    await mkdir(wsA);
    await mkdir(wsB);
    const a = startFake(
      { prompt: askingToRun("git status") },
      { cwd: wsA, permissionPolicy: "ask", asker, permissionStoreDir: home },
    );
    const sa = (await a.ensureSession()).sessionId;
    assert.equal(outputText(await collect(a.runTurn(sa, "go"))), "always");
    await a.close();
    assert.deepEqual(offered, [["once", "always", "no", ALWAYS_EVERYWHERE_OPTION_ID]]);
    const b = startFake(
      { prompt: askingToRun("git status") },
      { cwd: wsB, permissionPolicy: "ask", asker, permissionStoreDir: home },
    );
    const sb = (await b.ensureSession()).sessionId;
    const events = await collect(b.runTurn(sb, "go"));
    await b.close();
    assert.equal(offered.length, 1, "remembered in the other workspace");
    assert.deepEqual(
      events.flatMap((e) => (e.type === "permission" ? [e.decision.decidedBy] : [])),
      ["remembered"],
    );
  }));

test("'always: npm run *' widens a command in the prompt, as the person saw it; short lines are not widened", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const offered: string[][] = [];
    const asker: PermissionAsker = {
      ask: async (p) => {
        offered.push(p.request.options.map((o) => o.name));
        return p.request.options.some((o) => o.optionId === ALWAYS_WIDER_OPTION_ID) ? ALWAYS_WIDER_OPTION_ID : "no";
      },
    };
    const run = async (command: string) => {
      const a = startFake(
        { prompt: askingToRun(command) },
        { cwd: dir, permissionPolicy: "ask", asker, permissionStoreDir: home },
      );
      const s = (await a.ensureSession()).sessionId;
      const events = await collect(a.runTurn(s, "go"));
      await a.close();
      return {
        out: outputText(events),
        by: events.flatMap((e) => (e.type === "permission" ? [e.decision.decidedBy] : [])),
      };
    };
    assert.deepEqual(await run("npm run build"), { out: "always", by: ["user"] });
    assert.deepEqual(offered[0], [
      "Allow",
      "Always allow",
      "Reject",
      "Always allow (everywhere)",
      "Always allow: npm run *",
    ]);
    const rules = await new PermissionStore(home).rules();
    assert.deepEqual(
      rules.map((r) => [r.effect, r.kind, r.key]),
      [["allow", "execute", "npm run *"]],
      "the widened pattern the prompt named, nothing wider",
    );
    // the widened rule covers the other scripts, and nothing that is not `npm run …`
    assert.deepEqual(await run("npm run lint"), { out: "always", by: ["remembered"] });
    assert.equal(offered.length, 1);
    assert.deepEqual(await run("npm test"), { out: "no", by: ["user"] });
    assert.ok(
      !offered[1]!.some((n) => n.includes("*")),
      "a two-word line is not offered widened (npm * would cover npm)",
    );
  }));

test("a rule that cannot be saved is reported and the answer still reaches the agent", () =>
  withTmp(async (dir) => {
    const notADir = join(dir, "file");
    await writeFile(notADir, "");
    const rt = startFake(
      { prompt: askingToRun("npm test") },
      {
        cwd: dir,
        permissionPolicy: "ask",
        asker: { ask: async () => "always" },
        permissionStoreDir: join(notADir, "home"),
      },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.equal(outputText(events), "always");
    const notice = events.find((e) => e.type === "notice");
    assert.match(notice?.type === "notice" ? notice.title : "", /not remembered/);
  }));
