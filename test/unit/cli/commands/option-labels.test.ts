// #35 (stop 47): a thread keeps the name of the option a permission question was answered with, so a history card,
// `attach` and `answer` name it as the person saw it, not by its id. Hostile: an agent's option name can embed the
// command it allows with its env values and a key; the thread's JSONL, the recall index (anything in the data home)
// and what `run`, `attach` and `answer` print keep the env names and drop the values, and redact the key. The
// built CLI and the hostile fake agent's `script` turn with the options it is given: `run` in process (approve-all:
// the policy answers) and `run --detach --permission ask` in the thread host answered by `answer`.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { HostEvent, HostStatus } from "../../../../src/core/host/protocol";
import type { PermissionRecord } from "../../../../src/core/model/records";
import { homeLayout } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { runCli, startCli } from "../../../fixtures/cli/spawn-cli";
import { FIXTURES } from "../../../fixtures/fake-agents/hostile";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { cli, detached, hostEnv, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";

const AGENT = `${process.execPath} ${join(FIXTURES, "hostile-agent.main.js")}`;
const KEY = "sk-proj-Zq8vR2mN4xT6yW1bC3dF5gH7";
const DB = "postgres://admin:hunter22@db.internal/prod";
const KEY_2 = "sk-ant-api03-Lp9Ks8Jd7Hf6Gg5Aa4";
/** Claude's "don't ask again" option, as a hostile agent writes it: a key, an env value, a key in an argument. */
const NAME = `Yes, and don't ask again for \`OPENAI_API_KEY=${KEY} DATABASE_URL="${DB}" npm test --key ${KEY_2}\``;
const LABEL = "Yes, and don't ask again for `OPENAI_API_KEY=… DATABASE_URL=… npm test --key [REDACTED]`";
const SECRETS = [KEY, "hunter22", "db.internal", KEY_2];
/**
 * In `dir`: a data home, and `run`'s arguments for the agent's turn in an empty folder: it asks about `npm test`
 * with options whose ids are Claude's, `once` and `always` their names, read from a file beside them (the thread
 * keeps the prompt, and the ledger the session's folder's files: the names must be in neither).
 */
function world(dir: string, once: string, always: string): { home: string; args: string[] } {
  const options = [
    { optionId: "proceed_always", name: always, kind: "allow_always" },
    { optionId: "proceed_once", name: once, kind: "allow_once" },
    { optionId: "cancel", name: "No, and tell Claude what to do differently", kind: "reject_once" },
  ];
  const [home, cwd, optionsFile] = [join(dir, "home"), join(dir, "ws"), join(dir, "options.json")];
  for (const d of [home, cwd]) mkdirSync(d);
  writeFileSync(optionsFile, JSON.stringify(options));
  const ask = { title: "npm test", kind: "execute", rawInput: { command: "npm test" } };
  return { home, args: ["--agent", AGENT, "--cwd", cwd, `script ${JSON.stringify([{ ask, optionsFile }])}`] };
}

const permissions = (home: string, id: string) =>
  new ThreadStore(home).read(id).records.filter((r): r is PermissionRecord => r.kind === "permission");

/**
 * Every file of the data home as text (the thread files, the indexes with the recall index and their journals, the
 * audit log, the host's log, …) but the protocol traffic: that is what the agent sent, verbatim but for key-like
 * strings (protocol-log-file.ts), kept for debugging a session, not the thread.
 */
function everything(home: string): string {
  const { trafficDir, protocolLogsDir } = homeLayout(home);
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => statSync(p).isFile() && ![trafficDir, protocolLogsDir].some((d) => p.startsWith(`${d}/`)))
    .map((p) => readFileSync(p, "latin1"))
    .join("\n");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function holdsNoSecret(text: string, where: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} holds ${s}`);
}

test("hostile: run keeps the policy's option by its name, env values and keys left out; attach prints it", () =>
  withTmpDir("acp-option-label-", async (dir) => {
    const { home, args } = world(dir, NAME, "Yes, always");
    const run = await runCli(["run", "--permission", "approve-all", ...args], { home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^proceed_once$/m, "the policy took the agent's allow_once option");
    const id = new ThreadStore(home).ids()[0]!;
    assert.deepEqual(
      permissions(home, id).map((r) => [r.optionId, r.optionName, r.decidedBy]),
      [["proceed_once", LABEL, "policy"]],
    );
    assert.ok(run.stdout.includes(`[permission] npm test: allowed (policy: `), run.stdout);
    assert.ok(run.stdout.includes(` — "${LABEL}" [proceed_once]\n`), run.stdout);
    // the history `attach` prints from the file: the label next to the id, in text and json
    const text = await runCli(["attach", id], { home });
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes(` — "${LABEL}" [proceed_once]\n`), text.stdout);
    const json = await runCli(["attach", id, "--format", "json"], { home });
    const decision = json.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; decision?: { optionId: string; optionName?: string } })
      .find((e) => e.type === "permission")?.decision;
    assert.deepEqual([decision?.optionId, decision?.optionName], ["proceed_once", LABEL]);
    holdsNoSecret(run.stdout + text.stdout + json.stdout, "what run and attach printed");
    const recall = await runCli(["recall", "--global", "npm"], { home });
    assert.equal(recall.code, 0, recall.stderr);
    holdsNoSecret(everything(home), "the data home (the thread, the recall index)");
  }));

test("hostile: a question of the thread host answered by `answer` keeps the option's name without its secrets", () =>
  withTmpDir("acp-option-label-", async (dir) => {
    const { home, args } = world(dir, "Yes", NAME);
    const followers: ReturnType<typeof startCli>[] = [];
    try {
      const id = await detached(home, ["--permission", "ask", ...args]);
      const watcher = startCli(["attach", id], { home, env: hostEnv() });
      let err = "";
      watcher.child.stderr!.on("data", (d) => (err += d));
      await waitFor(() => /acp-threads answer/.test(err), "the attached client shows the question");
      // `events` (other tools read it): connected once the host counts it, the watcher and the status asking
      let events = "";
      const follow = startCli(["events", "--follow", "--format", "json"], {
        home,
        env: hostEnv(),
        onStdout: (o) => (events = o),
      });
      followers.push(follow);
      for (;;) {
        const st = JSON.parse((await cli(home, ["host", "status", "--format", "json"])).stdout) as Partial<HostStatus>;
        assert.ok(st.clients !== undefined, `the host runs: ${JSON.stringify(st)}`);
        if (st.clients >= 3) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const answered = await cli(home, ["answer", id, "--option", "proceed_always"]);
      assert.equal(answered.code, 0, answered.stderr);
      assert.equal(answered.stdout.split("\n")[0], `proceed_always "${LABEL}"`);
      // the attached client names the answer by its label
      const attached = await watcher.done;
      assert.match(attached.stderr, new RegExp(`answered proceed_always "${escape(LABEL)}" by acp-threads answer`));
      await waitFor(() => permissions(home, id).length > 0, "the permission record");
      const [r] = permissions(home, id);
      assert.deepEqual([r?.optionId, r?.optionKind, r?.optionName], ["proceed_always", "allow_always", LABEL]);
      assert.match(r?.answeredBy ?? "", /^acp-threads answer \(pid \d+\)$/);
      await waitFor(() => new ThreadStore(home).read(id).records.some((x) => x.kind === "turn_end"), "the turn's end");
      const text = await runCli(["attach", id], { home });
      assert.ok(text.stdout.includes(` — "${LABEL}" [proceed_always]\n`), text.stdout);
      // the `answered` event names the option by its label too
      const said = () =>
        events
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as HostEvent)
          .find((e) => e.kind === "answered" && e.threadId === id);
      await waitFor(() => !!said(), "the answered event");
      const event = said();
      assert.deepEqual(event?.kind === "answered" && [event.optionId, event.optionName], ["proceed_always", LABEL]);
      holdsNoSecret(events, "what events printed");
      // the recall index is built from the thread; nothing in the data home holds a value
      const recall = await runCli(["recall", "--global", "npm"], { home });
      assert.equal(recall.code, 0, recall.stderr);
      holdsNoSecret(everything(home), "the data home");
      holdsNoSecret(answered.stdout + text.stdout + attached.stderr, "what answer and attach printed");
    } finally {
      for (const f of followers.splice(0)) f.child.kill();
      await stopHost(home);
    }
  }));
