/** Shared pieces of the recall commands: the home, the repo scope of --cwd, output helpers. */
import { resolve } from "node:path";
import { openRecall, type Recall } from "../../core/recall/recall";
import { repoRoot } from "../../core/recall/scope";
import { resolveHome } from "../../core/store/paths";
import type { CliIO } from "../io";

export function openFor(io: CliIO): Recall {
  return openRecall(resolveHome(io.env));
}

export function repoOf(io: CliIO, cwd: string | undefined): string {
  return repoRoot(resolve(io.cwd, cwd ?? "."));
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
