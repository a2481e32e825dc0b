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
  | ({ t: "run"; id: number } & RunRequest);

export type SpawnerReply =
  | { t: "ready"; pid: number }
  | { t: "spawned"; id: number; pid: number }
  | { t: "error"; id: number; message: string; code?: string }
  | { t: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null }
  | ({ t: "ran"; id: number } & RunResult);
