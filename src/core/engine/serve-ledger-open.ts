/** The edit ledger an engine request reads or restores through: opened over the data home, disposed after. */
import { EditLedger } from "../ledger/edit-ledger";

export async function withLedger<T>(home: string, fn: (ledger: EditLedger) => T | Promise<T>): Promise<T> {
  const ledger = new EditLedger({ home, walkWorker: false }); // no walk: it reads and restores only
  try {
    return await fn(ledger);
  } finally {
    ledger.dispose();
  }
}
