/** Shared pieces of the recall commands: the home, the engine their reads go through, output helpers. */
import { localEngine, type LocalEngine } from "../../core/engine/local";
import { openRecall, type Recall } from "../../core/recall/recall";
import { resolveHome } from "../../core/store/paths";
import type { CliIO } from "../io";

export function openFor(io: CliIO): Recall {
  return openRecall(resolveHome(io.env));
}

/**
 * The engine the recall reads (core/engine/requests-recall.ts) go through, keeping one recall reader until `close`:
 * `oneShot` for a process that answers one read and exits (a query, `status`), else (the MCP server) its index
 * stays open between reads.
 */
export function recallEngine(io: CliIO, oneShot: boolean): LocalEngine {
  return localEngine({ home: resolveHome(io.env), recall: { env: io.env, oneShot } });
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
