import { RUN_EXIT } from "../core/model/run";

/** What a CLI command gets: its arguments and the process streams, so tests can run commands in-process. */
export interface CliIO {
  argv: string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on SIGINT / SIGTERM; commands stop their work and return EXIT.interrupted. */
  signal: AbortSignal;
}

/** Exit codes shared by every command. */
export const EXIT = {
  ok: RUN_EXIT.ok,
  error: RUN_EXIT.error,
  usage: 2,
  timeout: RUN_EXIT.timeout,
  noSession: 4,
  permissionDenied: RUN_EXIT.permission_denied,
  /** Another process holds the lock (a thread being written, a recall import running). */
  locked: 6,
  interrupted: RUN_EXIT.interrupted,
} as const;

export type CommandMain = (io: CliIO) => Promise<number>;
