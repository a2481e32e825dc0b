/**
 * One contender of the async append race (locked-append.test.ts): waits for the go file, then appends `batches`
 * batches of three ledger records through appendLedger (the extension host's path: async lock, write, fsync),
 * `inFlight` of them started at once, so this process's own appends queue too. Long lines make a torn or
 * interleaved write likely if the lock ever let two writers in. Prints one JSON line: { appended, errors }.
 *   append-race.main.js <ledgerFile> <goFile> <child> <batches> <inFlight>
 */
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { appendLedger } from "../../../../src/core/ledger/ledger-file";

const [file, goFile, child, batchesArg, inFlightArg] = process.argv.slice(2);
const filler = "x".repeat(32 * 1024);

async function main(): Promise<void> {
  while (!existsSync(goFile!)) await sleep(2);
  const stats = { appended: 0, errors: [] as string[] };
  const batches = Number(batchesArg);
  const inFlight = Number(inFlightArg);
  for (let i = 0; i < batches; i += inFlight) {
    const started = [];
    for (let j = i; j < Math.min(batches, i + inFlight); j++) {
      const records = [0, 1, 2].map((k) => ({
        kind: "review" as const,
        op: `${child}:${j}:${k}`,
        path: `/${filler}`,
        hunk: null,
        action: "keep" as const,
      }));
      started.push(appendLedger(file!, records).then(() => void stats.appended++));
    }
    for (const r of await Promise.allSettled(started)) if (r.status === "rejected") stats.errors.push(String(r.reason));
  }
  process.stdout.write(JSON.stringify(stats) + "\n");
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
