import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { FAKE_AGENT, runCli, type CliResult } from "../../../fixtures/cli/spawn-cli";

const AGENT = FAKE_AGENT;

function run(args: string[], home: string, opts: { interruptWhen?: RegExp } = {}): Promise<CliResult> {
  let interrupted = false;
  return runCli(args, {
    home,
    onStdout: (stdout, child) => {
      if (!opts.interruptWhen || interrupted || !opts.interruptWhen.test(stdout)) return;
      interrupted = true;
      child.kill("SIGINT");
    },
  });
}

const withHome = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-cli-", fn);

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test("run prints the streamed answer of every prompt, writes the protocol log and exits 0", () =>
  withHome(async (home) => {
    const log = join(home, "protocol.log");
    const res = await run(["run", "--agent", AGENT, "--protocol-log", log, "stream 3", "hello there"], home);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, "chunk 0 chunk 1 chunk 2 \necho: hello there\n");
    const traffic = await readFile(log, "utf8");
    assert.match(traffic, / -> .*"method":"session\/prompt"/);
    assert.match(traffic, / <- .*"echo: hello there"/);
  }));

test("run --format json prints events with turn numbers and ends with a summary line", () =>
  withHome(async (home) => {
    const file = join(home, "out.txt");
    const res = await run(
      ["run", "--agent", AGENT, "--permission", "approve-all", "--format", "json", `write ${file} hi`, "again"],
      home,
    );
    assert.equal(res.code, 0, res.stderr);
    const lines = jsonLines(res.stdout);
    const summary = lines[lines.length - 1];
    assert.equal(summary.type, "summary");
    assert.equal(summary.stopReason, "end_turn");
    assert.equal(summary.sessionId, "fake-session-1");
    assert.equal(summary.toolCalls, 1);
    const agent = summary.agent as { id: string };
    assert.deepEqual(agent, { id: agent.id, name: "fake-agent", version: "1.2.3" });
    assert.match(agent.id, /^node:[0-9a-f]{6}$/, "a command-line agent's id is its name and command's hash");
    assert.equal((summary.permissions as { optionKind: string }[])[0].optionKind, "allow_once");
    assert.deepEqual(
      lines.filter((l) => l.type === "done").map((l) => l.turn),
      [1, 2],
    );
    assert.equal(await readFile(file, "utf8"), "hi");
    const audit = (await readFile(join(home, "audit.jsonl"), "utf8")).trim().split("\n");
    assert.equal(audit.length, 1);
  }));

test("a policy denial that ends the turn cancelled exits 5 and leaves the file alone", () =>
  withHome(async (home) => {
    const res = await run(["run", "--agent", AGENT, "--format", "json", `write ${join(home, "no.txt")} hi`], home);
    assert.equal(res.code, 5, res.stderr);
    const summary = jsonLines(res.stdout).pop()!;
    assert.equal(summary.stopReason, "cancelled");
    assert.equal((summary.permissions as { decidedBy: string; optionKind: string }[])[0].optionKind, "reject_once");
  }));

test("usage errors exit 2", () =>
  withHome(async (home) => {
    assert.equal((await run(["run", "hello"], home)).code, 2);
    assert.equal((await run(["run", "--agent", AGENT], home)).code, 2);
    assert.equal((await run(["run", "--agent", AGENT, "--permission", "maybe", "x"], home)).code, 2);
    assert.equal((await run(["run", "--agent", "no-such-preset", "x"], home)).code, 2);
  }));

test("a turn that outlives --timeout exits 3", () =>
  withHome(async (home) => {
    const res = await run(["run", "--agent", AGENT, "--timeout", "0.5", "sleep 20000"], home);
    assert.equal(res.code, 3, res.stderr);
  }));

test("SIGINT cancels the turn, closes the agent and exits 130", () =>
  withHome(async (home) => {
    const res = await run(["run", "--agent", AGENT, "sleep 20000"], home, { interruptWhen: /sleeping/ });
    assert.equal(res.code, 130, res.stderr);
  }));

test("an agent that dies during initialize exits 1 with its stderr and leaves a protocol log", () =>
  withHome(async (home) => {
    const res = await run(["run", "--agent", `${AGENT} crash-init`, "hi"], home);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /fatal: cannot start fake agent/);
    assert.match(res.stderr, /protocol log written to/);
  }));

test("doctor --format json lists every preset", () =>
  withHome(async (home) => {
    const res = await run(["doctor", "--format", "json"], home);
    assert.equal(res.code, 0);
    const ids = (JSON.parse(res.stdout) as { id: string }[]).map((e) => e.id);
    assert.deepEqual(ids, ["codex", "claude", "gemini", "opencode", "pi"]);
  }));

test("every run is recorded as a thread: both turns, the agent's answers and the agent session id", () =>
  withHome(async (home) => {
    const res = await run(["run", "--agent", AGENT, "--format", "json", "hello there", "second prompt"], home);
    assert.equal(res.code, 0, res.stderr);
    const summary = jsonLines(res.stdout).at(-1)!;
    assert.match(String(summary.threadId), /^[0-9a-f-]{36}$/);
    const shown = await run(["threads", "show", String(summary.threadId), "--format", "json"], home);
    assert.equal(shown.code, 0, shown.stderr);
    const text = shown.stdout;
    for (const needle of [
      "hello there",
      "echo: hello there",
      "second prompt",
      "echo: second prompt",
      String(summary.sessionId),
    ]) {
      assert.ok(text.includes(needle), `thread lacks ${needle}:\n${text.slice(0, 2000)}`);
    }
  }));

test("a run whose thread cannot be written still answers: one warning, exit 0, threadId null", () =>
  withHome(async (home) => {
    writeFileSync(join(home, "threads"), "not a folder"); // no thread file can be created under this home
    const res = await run(["run", "--agent", AGENT, "--format", "json", "hello there", "again"], home);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr.match(/thread not recorded/g)?.length, 1, res.stderr);
    const summary = jsonLines(res.stdout).at(-1)!;
    assert.equal(summary.threadId, null);
    assert.equal(summary.turns, 2);
  }));
