/** Rules as code (permission-rules.ts) and their files (permission-store.ts): one engine for every agent. */
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import {
  formatRule,
  matchCommand,
  matchPath,
  matchRules,
  parseRule,
  type ScopedRule,
} from "../../../../src/core/acp/permission-rules";
import { PermissionStore } from "../../../../src/core/acp/permission-store";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-rules-engine-", fn);

test("the readable form round-trips and refuses what it cannot read or what would cover everything", () => {
  for (const text of [
    'allow execute "npm test"',
    'allow execute "npm run *"',
    'deny edit "**/.env"',
    'ask read "~/.ssh/**"',
  ]) {
    assert.equal(formatRule(parseRule(text)), text);
  }
  assert.deepEqual(parseRule('  deny   edit "a \\"b\\""  '), { effect: "deny", kind: "edit", pattern: 'a "b"' });
  for (const bad of [
    "allow execute npm test",
    'permit execute "x"',
    'allow execute "*"',
    'allow edit "**"',
    'allow edit "/**"',
    'allow execute ""',
  ])
    assert.throws(() => parseRule(bad), /not a permission rule|unknown rule effect|would cover everything/, bad);
  // a deny or ask may be broad
  assert.equal(parseRule('deny edit "**"').pattern, "**");
});

test("commands match word for word; a trailing ` *` covers one or more plain words and never shell syntax", () => {
  assert.ok(matchCommand("npm test", "npm test"));
  assert.ok(matchCommand("npm test", "  npm   'test' "), "whitespace and quoting are normalised");
  assert.ok(!matchCommand("npm test", "npm test --watch"));
  assert.ok(!matchCommand("rm -f junk.log", "rm -rf /home/me/x"));
  assert.ok(!matchCommand("git", "git push --force"));
  assert.ok(matchCommand("npm run *", "npm run build"));
  assert.ok(matchCommand("npm run *", "npm run build -- --watch"));
  assert.ok(!matchCommand("npm run *", "npm run"), "one word at least");
  assert.ok(!matchCommand("npm run *", "npm runx build"));
  for (const line of [
    "npm run build; rm -rf ~",
    "npm run build && curl x | sh",
    "npm run $(id)",
    "npm run `id`",
    "npm run x > /etc/passwd",
    "npm run $HOME",
    "npm run x\nrm -rf ~",
  ])
    assert.ok(!matchCommand("npm run *", line), line);
  // a line with shell syntax matches only as written, quoting included
  assert.ok(matchCommand("echo '$(id)'", "echo '$(id)'"));
  assert.ok(!matchCommand("echo '$(id)'", "echo $(id)"));
  assert.ok(!matchCommand("npm test", "FOO=1 npm test"), "env is part of the line");
});

test("path globs: ** any depth, * within a name, ~ the home folder, a bare name anywhere", () => {
  const home = "/home/me";
  assert.ok(matchPath("**/.env", "/ws/.env", home));
  assert.ok(matchPath("**/.env", "/ws/a/b/.env", home));
  assert.ok(!matchPath("**/.env", "/ws/.env.example", home));
  assert.ok(matchPath(".env", "/ws/sub/.env", home));
  assert.ok(matchPath("~/.ssh/**", "/home/me/.ssh/id_ed25519", home));
  assert.ok(!matchPath("~/.ssh/**", "/home/other/.ssh/id_ed25519", home));
  assert.ok(matchPath("/ws/src/*.ts", "/ws/src/a.ts", home));
  assert.ok(!matchPath("/ws/src/*.ts", "/ws/src/deep/a.ts", home));
  assert.ok(matchPath("/ws/a.txt", "/ws/a.txt", home));
});

test("deny beats ask beats allow; agent and scope narrow a rule; outside paths need a rule naming them", () => {
  const rule = (effect: ScopedRule["effect"], kind: string, pattern: string, more: Partial<ScopedRule> = {}) =>
    ({ effect, kind, pattern, agentId: "*", scope: "*", ...more }) as ScopedRule;
  const rules = [
    rule("allow", "edit", "/ws/**"),
    rule("ask", "edit", "/ws/secrets/**"),
    rule("deny", "edit", "**/.env"),
    rule("allow", "execute", "npm run *", { agentId: "codex" }),
    rule("deny", "execute", "npm run publish", { scope: "/ws" }),
    rule("allow", "edit", "/etc/hosts"),
    rule("allow", "edit", "/etc/**"),
  ];
  const edit = (paths: string[], outside: string[] = []) =>
    matchRules(rules, { agentId: "gemini", kind: "edit", paths, outside }, "/ws")?.rule.pattern;
  assert.equal(edit(["/ws/a.ts"]), "/ws/**");
  assert.equal(edit(["/ws/secrets/k"]), "/ws/secrets/**");
  assert.equal(edit(["/ws/secrets/.env"]), "**/.env");
  assert.equal(edit(["/ws/a.ts", "/ws/.env"]), "**/.env", "one denied path denies the request");
  assert.equal(edit(["/ws/a.ts", "/other/b"]), undefined, "allow needs every path");
  assert.equal(edit(["/etc/hosts"], ["/etc/hosts"]), "/etc/hosts", "a rule naming the outside path");
  assert.equal(edit(["/etc/passwd"], ["/etc/passwd"]), undefined, "a glob does not open an outside path");
  assert.equal(
    matchRules(rules, { agentId: "gemini", kind: "delete", paths: ["/ws/.env"], outside: [] }, "/ws")?.effect,
    "deny",
    "an edit rule covers delete",
  );
  const run = (agentId: string, command: string, workspace = "/ws") =>
    matchRules(rules, { agentId, kind: "execute", command, paths: [], outside: [] }, workspace)?.effect;
  assert.equal(run("codex", "npm run build"), "allow");
  assert.equal(run("gemini", "npm run build"), undefined, "the rule is codex's");
  assert.equal(run("codex", "npm run publish"), "deny");
  assert.equal(run("codex", "npm run publish", "/elsewhere"), "allow", "the deny holds in /ws only");
});

test("a workspace's rules file only tightens; a corrupt or newer rules file is an error and no rule is lost", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    await mkdir(join(ws, ".acp-threads"), { recursive: true });
    const store = new PermissionStore(home);
    await store.remember({ agentId: "*", kind: "edit", key: join(ws, "**"), scope: "*" });
    await writeFile(
      join(ws, ".acp-threads", "permissions.json"),
      JSON.stringify({
        rules: [
          'deny edit "**/.env"',
          { rule: 'ask execute "npm publish"', agent: "codex" },
          'allow execute "rm -rf *"',
        ],
      }),
    );
    const rules = await store.rulesFor(ws);
    assert.deepEqual(
      rules.map((r) => [r.effect, r.kind, r.pattern, r.agentId, r.scope]),
      [
        ["allow", "edit", join(ws, "**"), "*", "*"],
        ["deny", "edit", "**/.env", "*", ws],
        ["ask", "execute", "npm publish", "codex", ws],
      ],
      "the workspace's allow rule is ignored",
    );
    assert.equal((await store.rulesFor(join(dir, "other"))).length, 1, "a workspace's rules hold there only");

    const file = join(home, "permissions.json");
    const before = await readFile(file, "utf8");
    for (const text of ["{ not json", JSON.stringify({ version: 99, rules: [] })]) {
      await writeFile(file, text);
      await assert.rejects(store.rulesFor(ws), /cannot be read|newer than this version/);
      await assert.rejects(
        store.remember({ agentId: "x", kind: "execute", key: "npm test", scope: "*" }),
        /cannot be read|newer than this version/,
      );
      assert.equal(await readFile(file, "utf8"), text, "the file is not written over");
    }
    await writeFile(file, before);
    assert.equal((await store.rules()).length, 1);
  }));

test("a version 2 file is read as allow rules; its `execute` keys stay the exact line", () =>
  withTmp(async (home) => {
    const rules = [{ id: "a1b2c3", agentId: "codex", kind: "execute", key: "git status", scope: "*", createdAt: "" }];
    await writeFile(join(home, "permissions.json"), JSON.stringify({ version: 2, rules }));
    const store = new PermissionStore(home);
    const [r] = await store.rulesFor("/ws");
    assert.equal(r.effect, "allow");
    const target = (command: string) => ({ agentId: "codex", kind: "execute", command, paths: [], outside: [] });
    assert.equal(matchRules([r], target("git status"), "/ws")?.effect, "allow");
    assert.equal(matchRules([r], target("git status --porcelain"), "/ws"), undefined, "never wider than it was");
  }));
