/**
 * Child process for dispose-exit.test.ts: in the git repository `<ws>`, records one turn that changes the
 * committed file `<file>` (its "before" is read through the ledger's `git cat-file --batch`), then:
 *   turn      no session is open: the turn's end released the folder's tracker; the ledger is disposed
 *   session   a session is open across the turn; the session and the ledger are disposed
 *   reader    no ledger: a `BlobReader` reads the file's committed version and is left idle, not disposed
 * After a dispose it waits until no `git cat-file` it started is alive, and prints "ended". It then has nothing
 * left to do (nor after "idle"): the process must exit by itself. If it has not 10 s later, it prints what holds it
 * (the active resources, the live `git cat-file` processes it started) and exits 3.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { BlobReader, indexEntries } from "../../../../src/core/ledger/git-plumbing";
import { THREAD, turn } from "./helpers";

/** The pids of live `git cat-file` processes whose parent is this process (Linux: /proc). */
function catFiles(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n)))
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (Number(ppid) === process.pid && state !== "Z" && cmd.startsWith("git\0cat-file")) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  return pids;
}

async function main(): Promise<void> {
  const [mode, home, ws, file] = process.argv.slice(2);
  if (mode === "reader") {
    const read = await new BlobReader(ws!).read((await indexEntries(ws!)).map((e) => e.id));
    process.stdout.write(`read ${read.size} blob(s)\nidle\n`);
    return watchdog();
  }
  const ledger = new EditLedger({ home: home!, walkWorker: false });
  const session = mode === "session" ? ledger.openSession(THREAD, ws!) : undefined;
  const op = await turn(ledger, ws!, 1, () => writeFileSync(join(ws!, file!), "changed by the turn\n"));
  const before = op.files[0]?.before;
  process.stdout.write(`recorded ${op.files.length} file(s), before kept: ${!!before?.stored}\n`);
  session?.dispose();
  ledger.dispose();
  process.stdout.write("disposed\n");
  watchdog();
  while (catFiles().length) await new Promise((r) => setTimeout(r, 20));
  process.stdout.write("ended\n");
}

function watchdog(): void {
  setTimeout(() => {
    const held = process.getActiveResourcesInfo().filter((r) => r !== "Timeout");
    process.stdout.write(`still running 10 s later: held by ${held.join(", ")}; git cat-file pids: ${catFiles()}\n`);
    process.exit(3);
  }, 10_000).unref();
}

void main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(2);
});
