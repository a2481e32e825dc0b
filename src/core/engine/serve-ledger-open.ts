/** The edit ledger an engine request reads or restores through: opened over the data home, disposed after. */
import { EditLedger } from "../ledger/edit-ledger";

export async function withLedger<T>(home: string, fn: (ledger: EditLedger) => T | Promise<T>): Promise<T> {
  const ledger = new EditLedger({ home });
  try {
    return await fn(ledger);
  } finally {
    ledger.dispose();
  }
}
