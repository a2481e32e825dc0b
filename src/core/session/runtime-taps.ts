/**
 * What a thread session follows of its agent process besides its turns: the protocol log (recorded to the thread's
 * traffic file for bug bundles, and fired to `onTraffic` for the watchdog), events the agent sends outside a turn,
 * and its death (`onAgentExit`). Followed again for every new process (after a crash or a restart).
 */
import type { AcpAgentRuntime } from "../acp/agent-runtime";
import type { ProtocolLogEntry } from "../acp/protocol-log";
import type { AgentRuntime } from "../acp/runtime";
import { TrafficRecorder } from "../bundle/traffic";
import { Emitter, type Disposable } from "../lifecycle";
import type { RuntimeEvent } from "../model/events";
import type { AgentExit } from "./types";
import { background } from "../util/unexpected";

export interface TapOptions {
  /** Where the protocol traffic is recorded; undefined records nothing. */
  trafficFile?: string;
  agentName: string;
  /** False once the session is closed: an agent death is then no news. */
  open(): boolean;
  /** An event the agent sent for `sessionId` outside a turn call. */
  background(sessionId: string, event: RuntimeEvent): void;
}

export class RuntimeTaps {
  readonly #traffic = new Emitter<ProtocolLogEntry>();
  readonly #exits = new Emitter<AgentExit>();
  readonly onTraffic: (listener: (e: ProtocolLogEntry) => void) => Disposable = this.#traffic.event;
  readonly onAgentExit: (listener: (e: AgentExit) => void) => Disposable = this.#exits.event;
  #taps: Disposable[] = [];
  #recorder: TrafficRecorder | undefined;

  constructor(private readonly o: TapOptions) {}

  /** Follows `runtime`, whose session is `sessionId`, instead of the previous one. */
  follow(runtime: AgentRuntime, sessionId: string): void {
    this.release();
    const rt = runtime as Partial<AcpAgentRuntime>;
    const log = rt.protocolLog;
    if (this.o.trafficFile && log) {
      this.#recorder ??= new TrafficRecorder(this.o.trafficFile);
      this.#recorder.addSession(sessionId);
      this.#taps.push(this.#recorder.follow(log));
    }
    if (log) this.#taps.push(log.onLine((e) => this.#traffic.fire(e)));
    if (rt.onEvent) this.#taps.push(rt.onEvent(({ sessionId: id, event }) => this.o.background(id, event)));
    if (rt.onStatus)
      this.#taps.push(
        rt.onStatus((s) => {
          if (s !== "failed" || !this.o.open()) return;
          const exit = log?.entries().findLast((e) => e.direction === "note" && e.text.startsWith("agent exited"));
          const name = this.o.agentName;
          this.#exits.fire({
            message: exit ? `${name}: ${exit.text}` : `${name} stopped`,
            stderrTail: log?.stderrTail() ?? [],
          });
        }),
      );
  }

  /** Resolves once the traffic recorded so far is on disk (the recorder gathers lines for a moment). */
  flushTraffic(): Promise<void> {
    return this.#recorder?.flush() ?? Promise.resolve();
  }

  /** Stops following the current process (it is being replaced or stopped). */
  release(): void {
    for (const d of this.#taps.splice(0)) d.dispose();
  }

  dispose(): void {
    background(this.close(), "writing the session's traffic");
  }

  /** Stops following; resolves once the recorded traffic is on disk. */
  async close(): Promise<void> {
    this.release();
    const recorded = this.#recorder?.close();
    this.#traffic.dispose();
    this.#exits.dispose();
    await recorded;
  }
}
