import type { RunRequest, RunResult } from "./run-to-end";

/** The messages between the host (spawner-client.ts) and the spawner (spawner-main.ts), over node's IPC channel. */

export type SpawnerRequest =
  | {
      t: "spawn";
      id: number;
      file: string;
      args: string[];
      cwd: string;
      env: NodeJS.ProcessEnv;
      /** The host's one-shot Unix sockets: `io` becomes the child's stdin and stdout, `err` its stderr. */
      io: string;
      err: string;
    }
  | ({ t: "run"; id: number } & RunRequest)
  | {
      /** A pseudo-terminal through node-pty, loaded from `module` (the host resolved it); bytes over `sock`. */
      t: "pty";
      id: number;
      file: string;
      args: string[];
      cwd: string;
      env: Record<string, string>;
      cols: number;
      rows: number;
      name: string;
      module: string;
      sock: string;
    }
  | { t: "resize"; id: number; cols: number; rows: number };

export type SpawnerReply =
  | { t: "ready"; pid: number }
  | { t: "spawned"; id: number; pid: number }
  | { t: "error"; id: number; message: string; code?: string }
  | { t: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null }
  | ({ t: "ran"; id: number } & RunResult)
  /** node-pty's exit report as it gave it (a signal number, exitCode 0 when signalled). */
  | { t: "pty-exit"; id: number; exitCode: number; signal?: number };
