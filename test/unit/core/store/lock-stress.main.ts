/**
 * One contender of the lock stress test (file-lock.test.ts): waits for the go file, then makes `attempts` attempts
 * to open the thread file's writer. Each win checks that nobody else is inside (an O_EXCL marker), appends three
 * records through the real JsonlWriter and leaves; every 3rd win of an even child "dies" holding the lock (it
 * rewrites the lock with a dead pid, as a crashed writer leaves it), so the others race to take a stale lock over.
 * Prints one JSON line: { wins, conflicts, deaths, overlaps, errors }.
 *   lock-stress.main.js <threadFile> <goFile> <child> <attempts> <deadPid>
 */
import { openSync, closeSync, existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { AcpThreadsError } from "../../../../src/core/errors";
import { lockPathFor } from "../../../../src/core/store/file-lock";
import { JsonlWriter } from "../../../../src/core/store/jsonl-writer";

const [file, goFile, childArg, attemptsArg, deadPidArg] = process.argv.slice(2);
const child = Number(childArg);
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const isConflict = (err: unknown) =>
  err instanceof AcpThreadsError &&
  (err.code === "locked" || /already being written|keeps taking it/.test(err.message));

while (!existsSync(goFile!)) pause(2);
const stats = { wins: 0, conflicts: 0, deaths: 0, overlaps: 0, errors: [] as string[] };
const marker = `${file}.inside`;
for (let i = 0; i < Number(attemptsArg); i++) {
  let w: JsonlWriter;
  try {
    w = JsonlWriter.open(file!, { create: false });
  } catch (err) {
    if (isConflict(err)) stats.conflicts++;
    else stats.errors.push(String(err));
    pause(Math.random());
    continue;
  }
  stats.wins++;
  let inside = true;
  try {
    closeSync(openSync(marker, "wx"));
  } catch {
    stats.overlaps++; // another writer is inside right now
    inside = false;
  }
  for (let k = 0; k < 3; k++) {
    w.append({ kind: "agent_message", messageId: `${child}:${i}:${k}`, text: `child ${child} attempt ${i} #${k}` });
    spin(0.05);
  }
  if (inside) rmSync(marker);
  if (child % 2 === 0 && stats.wins % 3 === 0) {
    // die holding it: what a killed writer leaves behind (a complete lock naming a pid that is gone)
    const dead = {
      pid: Number(deadPidArg),
      host: hostname(),
      label: "dead",
      since: new Date().toISOString(),
      token: `dead-${child}-${i}`,
    };
    const tmp = `${lockPathFor(file!)}.dead-${child}`;
    writeFileSync(tmp, JSON.stringify({ ...dead, startedAt: dead.since }));
    renameSync(tmp, lockPathFor(file!));
    stats.deaths++;
  }
  w.close(); // releases only a lock that is still ours
  pause(Math.random());
}
process.stdout.write(JSON.stringify(stats) + "\n");
