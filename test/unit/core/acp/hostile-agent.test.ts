/**
 * Hostile agents over stdio (test/fixtures/fake-agents/hostile-agent.main.ts, stdio-agent.main.ts): terminals
 * under deny-all, asking for one command and running another, a 2 GB file read ten lines at a time, session/list
 * paging forever, and a 1 GB flood without newlines. Each must end by itself, with the client intact.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { MAX_LIST_PAGES } from "../../../../src/core/acp/session-open";
import type { PermissionPolicy } from "../../../../src/core/model/agent";
import { FIXTURES, hostile, scripted, turnOf } from "../../../fixtures/fake-agents/hostile";
import { outputText } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { useSpawnerForTerminals } from "../../../fixtures/spawner/terminals";

/** A safety net so a regression fails instead of hanging the run; never a speed assertion. */
const BOUND = { timeout: 120_000 };

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-hostile-", fn);

test("deny-all: an agent that creates a terminal gets a clear JSON-RPC error and nothing runs", BOUND, () =>
  withTmp(async (cwd) => {
    const marker = join(cwd, "pwned");
    for (const policy of ["deny-all", "approve-reads"] as PermissionPolicy[]) {
      const rt = hostile(cwd, { permissionPolicy: policy });
      try {
        const out = outputText(await turnOf(rt, `bait echo hi -- touch ${marker}`));
        assert.match(out, /^refused: terminal\/create "touch .*pwned" refused: /, policy);
        if (policy === "deny-all") assert.match(out, /deny-all/);
        assert.equal(existsSync(marker), false, `${policy}: the command must not run`);
      } finally {
        await rt.close();
      }
    }
  }),
);

test(
  "through the spawner (as in the editor): deny-all still refuses the terminal and nothing runs; approve-all runs it",
  { ...BOUND, skip: process.platform === "win32" },
  () =>
    withTmp(async (cwd) => {
      const { spawner, restore } = useSpawnerForTerminals();
      try {
        const marker = join(cwd, "pwned");
        for (const policy of ["deny-all", "approve-all"] as PermissionPolicy[]) {
          const rt = hostile(cwd, { permissionPolicy: policy }, {}, { launcher: spawner });
          try {
            await turnOf(rt, `bait echo hi -- touch ${marker}`);
            assert.equal(existsSync(marker), policy === "approve-all", `${policy}: the command ran or not`);
          } finally {
            await rt.close();
          }
        }
        assert.ok(spawner.alive && spawner.spawnerPid, "the agent and its terminal went through the spawner");
      } finally {
        restore();
      }
    }),
);

test(
  "an agent that asks for one command and runs another is asked again, and the other command does not run",
  BOUND,
  () =>
    withTmp(async (cwd) => {
      const marker = join(cwd, "pwned");
      const asker = scripted(["once", "reject"]);
      const rt = hostile(cwd, { permissionPolicy: "ask", asker });
      try {
        const out = outputText(await turnOf(rt, `bait echo hi -- touch ${marker}`));
        assert.match(out, /^refused: .*not allowed/);
        assert.equal(existsSync(marker), false);
        assert.equal(asker.asked.length, 2, "the command it ran was asked for");
        assert.equal(asker.asked[1].request.toolCall.title, `touch ${marker}`);
        assert.equal(asker.asked[1].request.toolCall.kind, "execute");
      } finally {
        await rt.close();
      }
    }),
);

test("an agent that asks first and then runs that same command is asked once", BOUND, () =>
  withTmp(async (cwd) => {
    const asker = scripted(["once"]);
    const rt = hostile(cwd, { permissionPolicy: "approve-reads", asker });
    try {
      assert.equal(outputText(await turnOf(rt, "bait echo hi -- echo hi")), "ran: 0|hi");
      assert.equal(asker.asked.length, 1);
    } finally {
      await rt.close();
    }
  }),
);

test("'always' on one command is a rule for that program and subcommand only, in this workspace", BOUND, () =>
  withTmp(async (cwd) => {
    const marker = join(cwd, "pwned");
    const asker = scripted(["always", "reject"]);
    const rt = hostile(cwd, { permissionPolicy: "ask", asker, permissionStoreDir: join(cwd, "home") });
    try {
      assert.equal(outputText(await turnOf(rt, "bait echo hi -- echo hi")), "ran: 0|hi");
      assert.deepEqual(
        (await rt.permissions.rules()).map((r) => [r.kind, r.key, r.scope]),
        [["execute", "echo hi", cwd]],
      );
      // the same command again: remembered, nobody asked
      assert.equal(outputText(await turnOf(rt, "bait echo hi -- echo hi")), "ran: 0|hi");
      assert.equal(asker.asked.length, 1);
      // another command is not covered by the rule: its request and then its terminal are asked (both rejected)
      const out = outputText(await turnOf(rt, `bait touch ${marker} -- touch ${marker}`));
      assert.match(out, /^refused: /);
      assert.equal(existsSync(marker), false);
      assert.deepEqual(
        asker.asked.slice(1).map((p) => p.request.toolCall.title),
        [`\`touch ${marker}\``, `touch ${marker}`],
      );
    } finally {
      await rt.close();
    }
  }),
);

test("fs/read_text_file of a 2 GB sparse file with limit 10 answers ten lines", BOUND, () =>
  withTmp(async (cwd) => {
    const file = join(cwd, "huge.log");
    await writeFile(file, Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const fh = await open(file, "r+");
    await fh.truncate(2 * 1024 ** 3);
    await fh.close();
    const rt = createAgentRuntime(
      {
        agent: {
          id: "fake-stdio",
          displayName: "Fake",
          command: process.execPath,
          args: [join(FIXTURES, "stdio-agent.main.js")],
        },
        cwd,
      },
      { noPty: true },
    );
    try {
      const out = outputText(await turnOf(rt, `read ${file} 3 10`));
      assert.equal(out, `read: ${Array.from({ length: 10 }, (_, i) => `line ${i + 3}`).join("\n")}`);
    } finally {
      await rt.close();
    }
  }),
);

test("session/list paging stops at a repeated cursor and at the page cap", BOUND, () =>
  withTmp(async (cwd) => {
    const repeat = hostile(cwd, {}, { HOSTILE_LIST: "repeat" });
    try {
      assert.equal((await repeat.listSessions()).length, 2, "the second page repeats the cursor");
    } finally {
      await repeat.close();
    }
    const forever = hostile(cwd);
    try {
      assert.equal((await forever.listSessions()).length, MAX_LIST_PAGES);
    } finally {
      await forever.close();
    }
  }),
);

test(
  "a 1 GB flood without newlines closes the connection with an error naming the limit; what came before stays",
  BOUND,
  () =>
    withTmp(async (cwd) => {
      const rt = hostile(cwd, {}, {}, { maxMessageBytes: 1024 * 1024 });
      try {
        const events = await turnOf(rt, `flood ${1024 ** 3}`);
        assert.equal(outputText(events), "before the flood");
        const last = events[events.length - 1];
        assert.equal(last.type, "error");
        assert.match(last.type === "error" ? last.message : "", /at most 1048576 bytes/);
        assert.ok(
          rt.protocolLog.entries().some((e) => e.direction === "note" && /without a newline/.test(e.text)),
          "the protocol log says why",
        );
      } finally {
        await rt.close();
      }
    }),
);
