// A hosted agent's terminals shown by the attached editors (#35 item 7), against the real host, its real run path
// (the CLI's), the real stdio fake agent and real ptys: the editor serving the session's folder is told of the
// terminal, gets its output and exit and types into it; a client that attaches mid-run gets the running terminal
// with its recent output; a client that does not read is sent at most a bounded backlog (the rest counted as
// dropped) and the host never waits for it. Hostile: input from a client that serves nothing, from one serving
// other folders, and from one that withdrew its offer is refused and never reaches the process. A terminal login is
// offered only while a client shows the session's terminals.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import {
  EditorTerminals,
  TERMINAL_RECENT_CHARS,
  TERMINAL_UNSENT_CAP,
} from "../../../../src/core/host/editor-terminals";
import { HOST_PROTOCOL } from "../../../../src/core/host/protocol";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { rawDoorProof } from "../../../fixtures/host/raw-door";
import { viewer } from "../../../fixtures/host/terminal-viewer";
import { waitFor } from "../../../fixtures/spawner/wait";

/**
 * Starts the fake agent's `terminal CMD` (or, with `prompt`, that prompt) in `cwd` in the host; `ended` resolves
 * with its records. Rejects when the run ends before its thread opens.
 */
async function start(
  home: string,
  cwd: string,
  command: string,
  o: { prompt?: string; env?: Record<string, string> } = {},
): Promise<{ ended: Promise<ThreadRecord[]> }> {
  const agentLabel = { id: "fake", name: "Fake agent" };
  const conn = await connectHost({ home, client: "acp-threads run --detach" });
  assert.ok(conn);
  const records: ThreadRecord[] = [];
  const ended = new Promise<ThreadRecord[]>((resolve) =>
    conn.onPush((m) => {
      if (m.t === "records") records.push(...m.records);
      if (m.t === "ended") resolve(records);
    }),
  ).finally(() => conn.close());
  const prompts = [o.prompt ?? `terminal ${command}`];
  const env = o.env ?? {};
  const started = await conn
    .request({
      t: "run",
      run: { cwd, prompts, agent: FAKE_AGENT, agentLabel, permission: "approve-all", env, stallMs: 0, retry: "off" },
    })
    .catch((err: unknown) => {
      conn.close();
      throw err;
    });
  assert.equal(started.t, "started");
  await conn.request({ t: "attach", threadId: started.t === "started" ? started.threadId : "", from: 0 });
  return { ended };
}

const said = (records: ThreadRecord[]) => records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : [])).join("");

const refused = (conn: HostConnection | undefined, term: string, data: string) =>
  conn!.request({ t: "terminal_input", term, data }).then(
    () => "accepted",
    (err: Error) => err.message,
  );

/** A host in `dir/home`, a workspace `dir/ws` and another folder `dir/other`. */
function withHost(fn: (o: { home: string; ws: string; other: string }) => Promise<void>): Promise<void> {
  return withCliHost("acp-host-terms-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    const other = join(dir, "other");
    mkdirSync(ws, { recursive: true });
    mkdirSync(other, { recursive: true });
    await fn({ home, ws, other });
  });
}

test("the editor serving the session's folder shows its agent's terminal: output, typing, exit", () =>
  withHost(async ({ home, ws }) => {
    const v = await viewer(home, [ws]);
    try {
      const run = await start(home, ws, "cat");
      await waitFor(() => v.terminals.length === 1, "the terminal is shown");
      const [t] = v.terminals;
      assert.equal(t.commandLine, "cat");
      assert.equal(t.cwd, ws);
      assert.equal(t.label, "Fake agent", "named after the agent, as the window names its own sessions' terminals");
      await v.conn.request({ t: "terminal_input", term: t.term, size: { cols: 100, rows: 30 } });
      await v.conn.request({ t: "terminal_input", term: t.term, data: "typed in the window\r" });
      await waitFor(() => /typed in the window/.test(v.output.get(t.term) ?? ""), "cat's echo");
      await v.conn.request({ t: "terminal_input", term: t.term, data: "\x04" });
      assert.match(said(await run.ended), /exit 0: .*typed in the window/s);
      await waitFor(() => v.exits.has(t.term), "the exit is pushed");
      assert.equal(v.exits.get(t.term), 0);
      assert.match(await refused(v.conn, t.term, "late"), /not running/, "an ended terminal takes no input");
    } finally {
      v.conn.close();
    }
  }));

test("hostile: only a client the terminal is shown to, while it serves terminals, types into it", () =>
  withHost(async ({ home, ws, other }) => {
    const v = await viewer(home, [ws]);
    const plain = await connectHost({ home, client: "acp-threads attach", watching: true });
    const elsewhere = await viewer(home, [other]);
    const filesOnly = await viewer(home, [ws], { fs: true, terminals: false });
    try {
      const run = await start(home, ws, "cat");
      await waitFor(() => v.terminals.length === 1, "the terminal is shown");
      const { term } = v.terminals[0];
      assert.equal(elsewhere.terminals.length + filesOnly.terminals.length, 0, "shown only inside its folders");
      assert.match(await refused(plain, term, "from a plain client\r"), /not shown to this client/);
      assert.match(await refused(elsewhere.conn, term, "from other folders\r"), /not shown to this client/);
      assert.match(await refused(filesOnly.conn, term, "from a files-only client\r"), /not shown to this client/);
      // the editor that was shown it withdraws its offer: from then on it types into nothing
      await v.conn.request({ t: "hello", protocol: HOST_PROTOCOL, client: "an editor", watching: true });
      assert.match(await refused(v.conn, term, "after withdrawing\r"), /not shown to this client/);
      // a new editor of the folder (shown it on its hello) ends it
      const again = await viewer(home, [ws]);
      await waitFor(() => again.terminals.length === 1, "shown on hello");
      await again.conn.request({ t: "terminal_input", term, data: "the real one\r\x04" });
      const output = said(await run.ended);
      assert.match(output, /the real one/);
      assert.doesNotMatch(output, /plain client|other folders|files-only|after withdrawing/);
      again.conn.close();
    } finally {
      for (const c of [v.conn, plain, elsewhere.conn, filesOnly.conn]) c?.close();
    }
  }));

test("a client that attaches mid-run (a reloaded window) gets the running terminal with its recent output", () =>
  withHost(async ({ home, ws }) => {
    const first = await viewer(home, [ws]);
    const run = await start(home, ws, "echo before the reload; cat");
    await waitFor(() => /before the reload/.test(first.output.get(first.terminals[0]?.term ?? "") ?? ""), "output");
    first.conn.close(); // the window reloads
    // a busy window: the terminal pushed right after its hello's answer is not lost before it listens
    const reloaded = await viewer(home, [ws], {}, 300);
    try {
      await waitFor(() => reloaded.terminals.length === 1, "shown again on hello");
      const [t] = reloaded.terminals;
      assert.equal(t.term, first.terminals[0].term);
      assert.match(t.recent ?? "", /before the reload/);
      await reloaded.conn.request({ t: "terminal_input", term: t.term, data: "after the reload\r\x04" });
      assert.match(said(await run.ended), /before the reload.*after the reload/s);
    } finally {
      reloaded.conn.close();
    }
  }));

test("a client that does not read holds a bounded backlog, is told what it missed, and the host goes on", () =>
  withHost(async ({ home, ws }) => {
    // a raw connection that says hello and then reads nothing for a while
    const slow = connect(hostPlace(home).socket);
    await new Promise<void>((resolve) => slow.once("connect", resolve));
    const proof = await rawDoorProof(slow, home);
    const hello = { t: "hello", id: 1, protocol: HOST_PROTOCOL, client: "a slow editor", proof, watching: true };
    slow.write(`${JSON.stringify({ ...hello, serves: { fs: false, terminals: true, roots: [ws] } })}\n`);
    slow.pause();
    const status = await connectHost({ home, client: "acp-threads host status", watching: true });
    try {
      const run = await start(home, ws, "head -c 6000000 /dev/zero | tr '\\0' x");
      let maxUnsent = 0;
      const watch = setInterval(() => {
        void status!.request({ t: "status" }).then((r) => {
          if (r.t === "status") maxUnsent = Math.max(maxUnsent, r.status.maxUnsent);
        });
      }, 20);
      const records = await run.ended.finally(() => clearInterval(watch));
      assert.match(said(records), /^exit 0: x/, "the run ended while the client read nothing");
      assert.ok(!slow.destroyed, "the slow client was not let go");
      // one output chunk (as JSON) may go past the cap
      assert.ok(maxUnsent < TERMINAL_UNSENT_CAP + 256 * 1024, `unsent ${maxUnsent} bytes`);
      // once it reads, it learns how much it missed
      let text = "";
      slow.setEncoding("utf8");
      slow.on("data", (d: string) => (text += d));
      slow.resume();
      await waitFor(() => /"exit"/.test(text), "the backlog and the exit");
      const dropped = text
        .split("\n")
        .flatMap((l) => (l.includes('"terminal_output"') ? [JSON.parse(l) as { dropped?: number }] : []))
        .reduce((n, m) => n + (m.dropped ?? 0), 0);
      assert.ok(dropped > 1_000_000, `dropped ${dropped}`);
    } finally {
      slow.destroy();
      status?.close();
    }
  }));

test("a terminal shown after it started carries at most TERMINAL_RECENT_CHARS of its latest output", () =>
  withHost(async ({ home, ws }) => {
    const first = await viewer(home, [ws]);
    const run = await start(home, ws, "head -c 300000 /dev/zero | tr '\\0' y; echo; echo the end; cat");
    await waitFor(() => /the end/.test(first.output.get(first.terminals[0]?.term ?? "") ?? ""), "output");
    const late = await viewer(home, [ws]);
    try {
      await waitFor(() => late.terminals.length === 1, "shown on hello");
      const recent = late.terminals[0].recent ?? "";
      assert.ok(recent.length <= TERMINAL_RECENT_CHARS, `${recent.length} characters`);
      assert.ok(recent.length > TERMINAL_RECENT_CHARS / 2);
      assert.match(recent, /the end/);
      await late.conn.request({ t: "terminal_input", term: late.terminals[0].term, data: "\x04" });
      await run.ended;
    } finally {
      first.conn.close();
      late.conn.close();
    }
  }));

test("a terminal login is seen only while a client shows the terminals of the session's folder", () =>
  withTmpDir("acp-host-login-", async (dir) => {
    const ws = join(dir, "ws");
    const other = join(dir, "other");
    mkdirSync(ws);
    mkdirSync(other);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "s.sock"), resolve));
    const sock = connect(join(dir, "s.sock"));
    await new Promise<void>((resolve) => sock.once("connect", resolve));
    try {
      const terms = new EditorTerminals({ push: () => {} });
      const login = terms.forSession(ws, "Fake agent");
      assert.match((await login.loginUnseen!()) ?? "", /Fake agent asks you to log in.*no VS Code window/);
      await terms.offer(sock, { fs: true, roots: [ws] });
      assert.ok(await login.loginUnseen!(), "a client serving files only shows no terminal");
      await terms.offer(sock, { fs: false, terminals: true, roots: [other] });
      assert.ok(await login.loginUnseen!(), "a client of other folders does not show it");
      await terms.offer(sock, { fs: false, terminals: true, roots: [ws] });
      assert.equal(await login.loginUnseen!(), undefined);
      terms.gone(sock);
      assert.ok(await login.loginUnseen!(), "the client went");
    } finally {
      sock.destroy();
      server.close();
    }
  }));

test("a hosted agent's terminal login fails at once with no editor to show it, and runs in the editor's terminal", () =>
  withHost(async ({ home, ws, other }) => {
    const mark = join(other, "logged-in");
    const auth = { env: { FAKE_AGENT_SCENARIO: "auth", FAKE_AGENT_TERMINAL_LOGIN: mark }, prompt: "hello" };
    const before = Date.now();
    await assert.rejects(start(home, ws, "", auth), /Fake agent asks you to log in, in a terminal.*no VS Code window/);
    assert.ok(Date.now() - before < 30_000, "at once, not after a login timeout");
    assert.equal(existsSync(mark), false, "no login ran");
    const v = await viewer(home, [ws]);
    try {
      const run = await start(home, ws, "", auth);
      assert.match(said(await run.ended), /echo: hello/);
      assert.ok(existsSync(mark), "the login ran");
      const login = v.terminals.find((t) => t.sessionId === "authentication");
      assert.ok(login, "the login's terminal was shown to the editor");
      assert.equal(login.label, "Fake agent");
      await waitFor(() => /logged in/.test(v.output.get(login.term) ?? ""), "the login's output");
      await waitFor(() => v.exits.get(login.term) === 0, "the login's exit");
    } finally {
      v.conn.close();
    }
  }));
