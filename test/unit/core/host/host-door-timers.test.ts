// The thread host's door refuses a timer it cannot honour (#35): an exec run's `timeoutMs` and a detached run's
// `timeoutMs` must be whole milliseconds from 1 to MAX_TIMER_MS (a Node timer past it would not wait as asked), a
// detached run's `stallMs` a number 0 or more. Hostile: any client of the host can send any JSON. Before, the host
// took a timeout past the bound (the run waited ~24.8 days, not the 30 asked) or a fraction of a millisecond, and a
// negative, string or null timeout or stall time of a detached run (it timed out at once, or had no watchdog).
// Each is refused with what to change and starts nothing. Real host (this process, the CLI's run path), real
// processes (`/bin/sh`, the stdio fake agent).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost, type HostConnection } from "../../../../src/core/host/client";
import type { DetachedRun } from "../../../../src/core/host/protocol";
import type { HostExec } from "../../../../src/core/host/protocol-exec";
import { MAX_TIMER_MS } from "../../../../src/core/util/guards";
import { listedExecRuns } from "../../../fixtures/host/exec-listed";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";

const DAY_MS = 24 * 3600 * 1000;

/** Values no client may ask a timeout to be (a JSON value each, as a hand-made client sends it). */
const BAD_TIMEOUTS: unknown[] = [MAX_TIMER_MS + 1, 30 * DAY_MS, 1.5, 0, -1, "600", null];

async function client(home: string, ws: string): Promise<HostConnection> {
  const conn = await connectHost({ home, client: "test", serves: { fs: false, roots: [ws] } });
  assert.ok(conn);
  return conn;
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (err: Error) => err.message,
  );

test("HOSTILE: exec_start with a timeout the host cannot honour is refused and starts nothing", () =>
  withCliHost("acp-door-timers-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    const conn = await client(home, ws);
    try {
      const exec = (timeoutMs: unknown): HostExec =>
        ({ command: "/bin/sh", args: ["-c", "sleep 600"], cwd: ws, timeoutMs }) as HostExec;
      for (const bad of BAD_TIMEOUTS)
        assert.match(
          await refusal(conn.request({ t: "exec_start", exec: exec(bad) })),
          /^exec_start: timeoutMs must be a whole number of milliseconds from 1 to 2147483647 \(about 24\.8 days/,
          `timeoutMs ${JSON.stringify(bad)}`,
        );
      assert.deepEqual(listedExecRuns(home), [], "no run was started");
      // the longest timer the host keeps is taken
      const r = await conn.request({ t: "exec_start", exec: exec(MAX_TIMER_MS) });
      assert.equal(r.t, "exec_started");
      if (r.t === "exec_started") await conn.request({ t: "exec_stop", runId: r.exec.runId });
    } finally {
      conn.close();
    }
  }));

test("HOSTILE: a detached run with a timeout or stall time the host cannot honour is refused and starts nothing", () =>
  withCliHost("acp-door-timers-", async ({ dir, home }) => {
    const conn = await client(home, dir);
    try {
      const run = (more: Record<string, unknown>) => fakeRun(dir, more as Partial<DetachedRun>);
      for (const bad of BAD_TIMEOUTS)
        assert.match(
          await refusal(conn.request({ t: "run", run: run({ timeoutMs: bad }) })),
          /^run: timeoutMs must be a whole number of milliseconds from 1 to 2147483647/,
          `timeoutMs ${JSON.stringify(bad)}`,
        );
      for (const bad of [-1, "120000", null, undefined])
        assert.match(
          await refusal(conn.request({ t: "run", run: run({ stallMs: bad }) })),
          /^run: stallMs must be a number of milliseconds, 0 or more/,
          `stallMs ${JSON.stringify(bad)}`,
        );
      const status = await conn.request({ t: "status" });
      assert.deepEqual(status.t === "status" && status.status.sessions, [], "no run was started");
      const ok = await conn.request({ t: "run", run: run({ timeoutMs: MAX_TIMER_MS, stallMs: 2 * MAX_TIMER_MS }) });
      assert.equal(ok.t, "started");
    } finally {
      conn.close();
    }
  }));
