/** Shared by `changes` and `restore`: the thread named on the command line, its folder and its ledger. */
import { EditLedger } from "../../core/ledger/edit-ledger";
import type { ThreadMetadata } from "../../core/model/metadata";
import { resolveHome } from "../../core/store/paths";
import { ThreadStore } from "../../core/store/thread-store";
import type { CliIO } from "../io";

export interface LedgerContext {
  store: ThreadStore;
  ledger: EditLedger;
  threadId: string;
  metadata: ThreadMetadata;
}

/** Opens the data home's ledger for the thread `idOrPrefix` (a unique prefix is enough, like git). */
export function openThreadLedger(io: CliIO, idOrPrefix: string): LedgerContext {
  const home = resolveHome(io.env);
  const store = new ThreadStore(home);
  const threadId = store.resolveId(idOrPrefix);
  return { store, ledger: new EditLedger({ home }), threadId, metadata: store.read(threadId).metadata };
}

export const json = (io: CliIO, value: unknown) => void io.stdout.write(JSON.stringify(value, null, 2) + "\n");
