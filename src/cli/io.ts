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
  ok: 0,
  error: 1,
  usage: 2,
  timeout: 3,
  noSession: 4,
  permissionDenied: 5,
  /** Another process holds the lock (a thread being written, a recall import running). */
  locked: 6,
  interrupted: 130,
} as const;

export type CommandMain = (io: CliIO) => Promise<number>;
