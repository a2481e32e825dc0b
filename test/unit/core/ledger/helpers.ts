/** Ledger test helpers: a folder and a ledger, and a "turn" that is just a function writing files. */
import { mkdirSync } from "node:fs";
import fsp from "node:fs/promises";
import { join } from "node:path";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import type { Logger } from "../../../../src/core/log";
import { withTmp } from "../store/helpers";

export const THREAD = "0196a000-0000-7000-8000-00000000000a";
export const OTHER_THREAD = "0196a000-0000-7000-8000-00000000000b";

export async function withLedger<T>(
  fn: (ws: string, ledger: EditLedger) => Promise<T>,
  opts: { watch?: boolean | number; walkWorker?: string | false; logger?: Logger } = {},
): Promise<T> {
  return withTmp(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const ledger = new EditLedger({ home: join(dir, "home"), ...opts });
    try {
      return await fn(ws, ledger);
    } finally {
      ledger.dispose();
    }
  });
}

/** Records `write()` as turn `turn` of `threadId` (agent "Fake"). */
export async function turn(
  ledger: EditLedger,
  ws: string,
  turn: number,
  write: () => void | Promise<void>,
  threadId = THREAD,
): Promise<OpView> {
  const capture = await ledger.beginTurn({ threadId, turn, cwd: ws, agent: { id: "fake", name: "Fake" } });
  await write();
  return capture.end("end_turn");
}

/**
 * Holds the next ledger read (`fs/promises` `readFile` of a `.jsonl`): it has the file's bytes, but answers only once
 * released. `reached` resolves when it started; `restore()` puts `readFile` back.
 */
export function holdNextLedgerRead(): { reached: Promise<void>; release(): void; restore(): void } {
  const table = fsp as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const readFile = table.readFile!;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let held: (() => void) | undefined;
  const reached = new Promise<void>((r) => (held = r));
  table.readFile = (...a) => {
    const read = readFile(...a);
    if (!held || !String(a[0]).endsWith(".jsonl")) return read;
    held();
    held = undefined;
    return read.then(async (v) => (await gate, v));
  };
  return { reached, release, restore: () => void (table.readFile = readFile) };
}
