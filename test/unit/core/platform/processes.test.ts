/** Process groups, kill and the process table per platform: real processes on Linux, injected values for the rest. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { isAlive } from "../../../../src/core/exec/proc";
import { platformOf } from "../../../../src/core/platform/host";
import { procTable, psTable, runMembers, type ProcessTable } from "../../../../src/core/platform/process-table";
import { groupSpawnOptions, signalTree } from "../../../../src/core/platform/process-tree";

const win = platformOf("win32", { SystemRoot: "C:\\Windows" });

test("Windows: children stay attached and hidden; the whole tree ends with taskkill /T /F", () => {
  assert.deepEqual(groupSpawnOptions(win), { detached: false, windowsHide: true });
  assert.equal(groupSpawnOptions(platformOf("darwin")).detached, true);
  const calls: string[][] = [];
  const run = (file: string, args: string[]) => void calls.push([file, ...args]);
  assert.equal(signalTree(4242, "SIGTERM", win, run), true);
  assert.equal(signalTree(4242, "SIGKILL", win, run), true);
  assert.equal(signalTree(4242, "SIGTSTP", win, run), false, "no suspend on Windows");
  assert.equal(signalTree(4242, "SIGCONT", win, run), false);
  assert.equal(signalTree(0, "SIGKILL", win, run), false);
  assert.deepEqual(calls, [
    ["C:\\Windows\\System32\\taskkill.exe", "/PID", "4242", "/T", "/F"],
    ["C:\\Windows\\System32\\taskkill.exe", "/PID", "4242", "/T", "/F"],
  ]);
});

test("POSIX: a signal reaches the whole group, grandchildren included (real processes)", async () => {
  const child = spawn("/bin/sh", ["-c", "sleep 100 & echo $!; wait"], { ...groupSpawnOptions(), stdio: "pipe" });
  const grandchild = Number(await new Promise<string>((r) => child.stdout!.once("data", (d) => r(String(d)))));
  assert.ok(isAlive(grandchild));
  assert.equal(signalTree(child.pid!, "SIGKILL"), true);
  for (let i = 0; i < 100 && isAlive(grandchild); i++) await sleep(20);
  assert.ok(!isAlive(grandchild), "the grandchild died with its group");
  assert.equal(signalTree(child.pid!, "SIGKILL"), false, "nothing left to signal");
});

async function withGroup(fn: (leader: number, member: number) => void | Promise<void>) {
  const child = spawn("/bin/sh", ["-c", "sleep 100 & echo $!; wait"], { detached: true, stdio: "pipe" });
  const member = Number(await new Promise<string>((r) => child.stdout!.once("data", (d) => r(String(d)))));
  try {
    await fn(child.pid!, member);
  } finally {
    signalTree(child.pid!, "SIGKILL");
  }
}

test("Linux /proc and the ps reader used on macOS see the same run members and start ids (real processes)", () =>
  withGroup((leader, member) => {
    for (const table of [procTable(), psTable()] as ProcessTable[]) {
      const members = runMembers(table, leader)!
        .map((m) => m.pid)
        .sort((a, b) => a - b);
      assert.deepEqual(
        members,
        [leader, member].sort((a, b) => a - b),
        table.kind,
      );
      const start = table.startId(leader);
      assert.ok(start !== undefined && start > 0, `${table.kind} start id`);
      assert.equal(table.startId(leader), start, "stable while the process lives");
      assert.equal(table.startId(99_999_999), undefined, "unknown pid");
    }
  }));

test("macOS ps output parses; without session ids a run is its group plus descendants", () => {
  const outputs: Record<string, string> = {
    "-A -o pid=,ppid=,pgid=,stat=": [
      "    1     0     1 Ss",
      "  500     1   500 Ss",
      "  501   500   500 S+",
      "  600   501   600 S", // a job the run's shell put in a group of its own
      "  601   600   600 Z", // a zombie is not alive
      "  700     1   700 S", // someone else
    ].join("\n"),
    "-o lstart= -p 500": "Mon Nov 23 10:26:23 2026\n",
  };
  const table = psTable((args) => {
    const out = outputs[args.join(" ")];
    if (out === undefined) throw new Error("no such process");
    return out;
  });
  assert.deepEqual(
    runMembers(table, 500)!.map((m) => m.pid),
    [500, 501, 600],
  );
  assert.equal(table.startId(500), Date.parse("Mon Nov 23 10:26:23 2026") / 1000);
  assert.equal(table.startId(501), undefined);
  const linuxLike: ProcessTable = {
    kind: "proc",
    list: () => [
      { pid: 500, ppid: 1, pgid: 500, sid: 500, zombie: false },
      { pid: 600, ppid: 500, pgid: 600, sid: 500, zombie: false },
      { pid: 700, ppid: 600, pgid: 700, sid: 700, zombie: false }, // left the session (setsid)
    ],
    startId: () => undefined,
  };
  assert.deepEqual(
    runMembers(linuxLike, 500)!.map((m) => m.pid),
    [500, 600],
    "with sessions, the session decides",
  );
});
