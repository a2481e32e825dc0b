/**
 * Runs one CLI command module in this process (src/cli/main.ts runs the CLI when it is the main module, as a
 * test bundle is, so tests import the command itself) and collects what it prints.
 */
import { PassThrough } from "node:stream";
import type { CommandMain } from "../../../src/cli/io";

export async function runCommand(
  main: CommandMain,
  argv: string[],
  opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  const code = await main({
    argv,
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { ...opts.env, ACP_THREADS_HOME: opts.home },
    cwd: opts.cwd ?? opts.home,
    signal: new AbortController().signal,
  });
  return { code, out, err };
}
