/**
 * How the engine reaches an agent: a spawned process over stdio (the real thing), or an in-process SDK agent
 * app (tests, benches). The runtime does not care which.
 */
import type { AgentApp, ClientApp, ClientConnection } from "@agentclientprotocol/sdk";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { PassThrough, Readable, Writable } from "node:stream";
import type { AgentSpec } from "../model/agent";
import { AcpThreadsError } from "../errors";
import { mergeEnv } from "../platform/env";
import type { Launcher } from "../platform/launcher";
import type { SandboxPlan } from "../sandbox/plan";
import { HOST_PLATFORM } from "../platform/host";
import { nodeLaunch } from "../runtime/node-launch";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import { createNdJsonStream } from "./ndjson-stream";
import type { ProtocolLog } from "./protocol-log";
import { spawnAgent, type AgentExit, type AgentProcess } from "./spawn";
import { background } from "../util/unexpected";

export interface TransportHooks {
  log: ProtocolLog;
  /** Fast path for `session/update` (see ndjson-stream.ts); returns true when handled. */
  onSessionUpdate: (params: unknown) => boolean;
  maxMessageBytes?: number;
  /** The agent broke the framing for good (see ndjson-stream.ts): the runtime stops it. */
  onFatal?: (err: Error) => void;
}

export interface AgentTransport {
  /** The agent's pid, when it is a process. */
  readonly pid: number | undefined;
  /** Resolves when the agent is gone (process exit); never for in-process agents. */
  readonly exited: Promise<AgentExit>;
  /** Starts the agent and connects `app` to it; a process transport first works out its launch off the thread. */
  connect(app: ClientApp, hooks: TransportHooks): ClientConnection | Promise<ClientConnection>;
  stderrTail(): string[];
  stop(): Promise<void>;
}

const never = new Promise<AgentExit>(() => {});

/**
 * Spawns `spec`; a Node-script agent gets a Node its package's `engines` accept (see runtime/node-launch.ts),
 * chosen when it connects (the runtime's asynchronous start), so `connect` rejects with `agent_not_found` (what to
 * install) when there is none. A `stop()` before the launch was worked out spawns nothing.
 */
export function processTransport(
  spec: AgentSpec,
  opts: {
    cwd: string;
    env?: Record<string, string>;
    baseEnv?: NodeJS.ProcessEnv;
    node?: NodeRuntimeOptions;
    launcher?: Launcher;
    sandbox?: SandboxPlan;
  },
): AgentTransport {
  const { node, ...spawnOpts } = opts;
  const env = mergeEnv(HOST_PLATFORM, opts.baseEnv ?? process.env, spec.env, opts.env);
  let proc: AgentProcess | undefined;
  let stopped = false;
  let resolveExited!: (e: AgentExit) => void;
  const exited = new Promise<AgentExit>((r) => (resolveExited = r));
  return {
    get pid() {
      return proc?.pid;
    },
    exited,
    async connect(app, hooks) {
      const launch = await nodeLaunch(spec, { ...node, cwd: opts.cwd, env });
      if (stopped) throw new AcpThreadsError("protocol", `${spec.displayName} was stopped before it started`);
      if (launch.note) hooks.log.note(launch.note);
      proc = spawnAgent(launch.spec, { ...spawnOpts, log: hooks.log });
      background(proc.exited.then(resolveExited), "watching the agent exit");
      return app.connect(createNdJsonStream(proc.stdin, proc.stdout, hooks));
    },
    stderrTail: () => proc?.stderrTail() ?? [],
    async stop() {
      stopped = true;
      await proc?.stop();
    },
  };
}

/**
 * An SDK agent app in this process. `wire: "direct"` connects the apps to each other (no bytes at all);
 * `wire: "ndjson"` (default) goes through in-memory pipes and the engine's NDJSON stream, so the protocol log
 * and the fast path are exercised exactly as with a process.
 */
export function inProcessTransport(agentApp: AgentApp, opts: { wire?: "direct" | "ndjson" } = {}): AgentTransport {
  let close: (() => void) | undefined;
  return {
    pid: undefined,
    exited: never,
    connect(app, hooks) {
      if (opts.wire === "direct") {
        const conn = app.connect(agentApp);
        close = () => conn.close();
        return conn;
      }
      const toAgent = new PassThrough();
      const toClient = new PassThrough();
      const agentConn = agentApp.connect(
        ndJsonStream(Writable.toWeb(toClient), Readable.toWeb(toAgent) as ReadableStream<Uint8Array>),
      );
      const conn = app.connect(createNdJsonStream(toAgent, toClient, hooks));
      close = () => {
        conn.close();
        agentConn.close();
        toAgent.end();
        toClient.end();
      };
      return conn;
    },
    stderrTail: () => [],
    async stop() {
      close?.();
    },
  };
}
