/**
 * Runs one CLI command module in this process (src/cli/main.ts runs the CLI when it is the main module, as a
 * test bundle is, so tests import the command itself) and collects what it prints.
 */
import { PassThrough } from "node:stream";
import type { CommandMain } from "../../../src/cli/io";

/** A CLI io whose stdout and stderr are collected (`out()`, `err()`), for a command or a view under test. */
export function capturedIO(env: NodeJS.ProcessEnv, cwd: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += d));
  stderr.on("data", (d) => (err += d));
  const io = {
    argv: [] as string[],
    stdout,
    stderr,
    stdin: new PassThrough(),
    env,
    cwd,
    signal: new AbortController().signal,
  };
  return { io, out: () => out, err: () => err };
}

export async function runCommand(
  main: CommandMain,
  argv: string[],
  opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; out: string; err: string }> {
  const c = capturedIO({ ...opts.env, ACP_THREADS_HOME: opts.home }, opts.cwd ?? opts.home);
  const code = await main({ ...c.io, argv });
  return { code, out: c.out(), err: c.err() };
}
