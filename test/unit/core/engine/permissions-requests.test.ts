// #35 item 7, the permission rules on the engine requests. Trust: a rule added through a request is exactly the rule
// its readable form says (the same parse and check as the typed text, core/acp/rule-text.ts), in a scope that is
// "*" or an absolute folder; a malformed or widening request (a bare wildcard, an unknown effect, a relative or
// empty scope, a pattern that is not a string) is refused with a clear usage error and writes nothing. A revoke
// names ids the rules file lists, all or none. Over the host's socket the same requests give the same outcomes.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseRule } from "../../../../src/core/acp/rule-text";
import { PermissionStore } from "../../../../src/core/acp/permission-store";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine, EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { withTmp } from "../store/helpers";

const rulesFile = (home: string) => join(home, "permissions.json");
const fileText = (home: string) => (existsSync(rulesFile(home)) ? readFileSync(rulesFile(home), "utf8") : "(none)");

test("a rule added over the engine request is the rule its readable form says, in its scope", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const engine = localEngine({ home });
    const typed = parseRule('deny   edit "**/.env" ');
    const saved = await engine.call({
      op: "permissions.add",
      ...typed,
      agentId: "codex",
      scope: join(dir, "ws") + "/",
    });
    assert.deepEqual(
      [saved.effect, saved.kind, saved.key, saved.agentId, saved.scope],
      ["deny", "edit", "**/.env", "codex", join(dir, "ws")],
    );
    const again = await engine.call({ op: "permissions.add", ...typed, agentId: "codex", scope: join(dir, "ws") });
    assert.equal(again.id, saved.id, "an equal rule is the one already there");
    assert.deepEqual(await new PermissionStore(home).rules(), [saved], "another process reads the same rule");
    const everywhere = await engine.call({
      op: "permissions.add",
      effect: "allow",
      kind: "execute",
      pattern: "npm run *",
      agentId: "*",
      scope: "*",
    });
    assert.equal(everywhere.scope, "*");
    assert.deepEqual(
      (await engine.call({ op: "permissions.list" })).rules.map((r) => r.id),
      [saved.id, everywhere.id],
    );
  }));

test("a malformed or widening permission request is refused with a clear error and writes nothing", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const engine = localEngine({ home });
    const kept = await engine.call({
      op: "permissions.add",
      effect: "deny",
      kind: "read",
      pattern: "~/.ssh/**",
      agentId: "*",
      scope: "*",
    });
    const before = fileText(home);
    const add = { op: "permissions.add", effect: "allow", kind: "execute", pattern: "npm test", agentId: "*" };
    const bad: [unknown, RegExp][] = [
      [{ ...add, scope: "*", pattern: "*" }, /would cover everything/],
      [{ ...add, scope: "*", kind: "edit", pattern: "/**" }, /would cover everything/],
      [{ ...add, scope: "*", kind: "read", pattern: " ~ " }, /would cover everything/],
      [{ ...add, scope: "*", effect: "permit" }, /unknown rule effect: permit/],
      [{ ...add, scope: "*", kind: "Execute" }, /unknown permission kind: Execute/],
      [{ ...add, scope: "ws" }, /scope is \* \(everywhere\) or a workspace folder's absolute path, not "ws"/],
      [{ ...add, scope: "" }, /scope is \* \(everywhere\) or a workspace folder's absolute path/],
      [{ ...add, scope: "**" }, /scope is \* \(everywhere\) or a workspace folder's absolute path/],
      [{ ...add, scope: "*", agentId: " " }, /for an agent id, or \* for every agent/],
      [{ ...add, scope: "*", pattern: ["npm", "test"] }, /permissions\.add: 'pattern' must be a string/],
      [{ ...add }, /permissions\.add: 'scope' must be a string/],
      [{ op: "permissions.revoke", ids: "all" }, /permissions\.revoke: 'ids' must be a list of strings/],
      [{ op: "permissions.revoke", ids: [kept.id, "nope"] }, /no remembered permission nope/],
      [{ op: "permissions.check", kind: "read", target: "x", agentId: "*", policy: "yolo", cwd: dir }, /'policy'/],
      [{ op: "permissions.check", kind: "read", target: "x", agentId: "*", policy: "ask", cwd: "." }, /'cwd'/],
    ];
    for (const [req, why] of bad) {
      await assert.rejects(
        engine.call(req as never),
        (err: unknown) => err instanceof AcpThreadsError && why.test(err.message),
        JSON.stringify(req),
      );
      assert.equal(fileText(home), before, `nothing written for ${JSON.stringify(req)}`);
    }
    await assert.rejects(engine.call({ op: "permissions.revoke", ids: ["nope"] }), { code: "not_found" });
    assert.deepEqual(await engine.call({ op: "permissions.revoke", ids: [kept.id] }), [kept]);
  }));

test("the permission requests over the host's socket give the outcomes they give in process", () =>
  withCliHost("acp-host-perm-", async ({ dir, home }) => {
    const local = localEngine({ home });
    const conn = await connectHost({ home, client: "permissions test" });
    assert.ok(conn);
    const outcome = async (engine: Engine, req: EngineRequest) => {
      try {
        const reply = await engine.call(req);
        // a new rule's id and time differ: the rest is the same
        return { reply: JSON.parse(JSON.stringify(reply).replace(/"(id|createdAt)":"[^"]*"/g, '"$1":""')) as unknown };
      } catch (err) {
        const e = err as AcpThreadsError;
        return { error: [e instanceof AcpThreadsError, e.code, e.message] };
      }
    };
    try {
      const remote = conn.asEngine;
      const same: EngineRequest[] = [
        { op: "permissions.add", effect: "ask", kind: "execute", pattern: "npm publish", agentId: "*", scope: dir },
        { op: "permissions.list" },
        {
          op: "permissions.check",
          kind: "execute",
          target: "npm publish",
          agentId: "x",
          policy: "approve-all",
          cwd: dir,
        },
        { op: "permissions.check", kind: "edit", target: "a.txt", agentId: "x", policy: "approve-reads", cwd: dir },
        { op: "permissions.add", effect: "allow", kind: "edit", pattern: "**", agentId: "*", scope: "*" },
        { op: "permissions.add", effect: "allow", kind: "edit", pattern: "a", agentId: "*", scope: "rel" },
        { op: "permissions.revoke", ids: ["nope"] },
      ];
      for (const req of same) {
        const there = await outcome(remote, req);
        if (req.op === "permissions.add" && "reply" in there) await local.call({ op: "permissions.clear" });
        assert.deepStrictEqual(await outcome(local, req), there, JSON.stringify(req));
      }
      assert.equal((await remote.call({ op: "permissions.clear" })).length, 1, "the one rule left, cleared");
      assert.deepEqual(await new PermissionStore(home).rules(), []);
    } finally {
      conn.close();
    }
  }));
