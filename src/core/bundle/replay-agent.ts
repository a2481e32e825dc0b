/**
 * The agent side of a bug bundle, played back: an `AgentTransport` whose "agent" sends exactly what the recorded
 * agent sent, in the recorded order, and checks each message the client sends against the recording (see
 * compare.ts). Agent messages that followed a client message go out once that client message arrived. Ids,
 * terminal ids and the workspace path are mapped between the recording and this run. A client message of another
 * kind than the recording expects ends the replay there (what follows would be meaningless).
 */
import { PassThrough } from "node:stream";
import type { AgentTransport } from "../acp/transport";
import { createNdJsonStream, LineSplitter } from "../acp/ndjson-stream";
import { mapStrings, replacePaths } from "./bundle";
import { comparable, firstDifference, valueAt, withoutAddedCapabilities } from "./compare";
import type { TrafficEntry } from "./traffic";
import type { ElicitationAnswer, FieldValue } from "../model/elicitation";

export type Msg = Record<string, unknown> & { id?: unknown; method?: unknown; params?: unknown };

export interface Step {
  /** Index into the bundle's traffic. */
  index: number;
  /** `send` = the client sent it, `recv` = the agent sent it. */
  d: "send" | "recv";
  m: Msg;
}

export interface Divergence {
  step: number;
  kind: "different" | "unexpected" | "stuck";
  /** What the recording expected here (method, or "response to <method>"). */
  expected: string;
  /** Where the messages differ, and the two values there. */
  path?: string;
  recorded?: unknown;
  replayed?: unknown;
  message: string;
}

/** What a step is about, for people: its method, or the method it answers. */
export function describeStep(steps: readonly Step[], s: Step): string {
  if (typeof s.m.method === "string") return s.m.method;
  const req = steps.find(
    (r) => r.d !== s.d && r.m.id === s.m.id && typeof r.m.method === "string" && r.index < s.index,
  );
  return `response to ${String(req?.m.method ?? "?")}`;
}

const NEVER = new Promise<never>(() => {});

export class ReplayAgent {
  readonly steps: Step[];
  #pos = 0;
  #queue: Msg[] = [];
  #send: ((line: string) => void) | undefined;
  #stopped = false;
  readonly divergences: Divergence[] = [];
  /** What differs but is no divergence (capabilities a newer client added). */
  readonly notes: string[] = [];
  /** Client messages after the recording ended (closing down), not compared. */
  extra = 0;
  matched = 0;
  /** Recorded client request id → the id the client uses now. */
  readonly #ids = new Map<string, unknown>();
  /** Recorded values the client chose (terminal ids) → its values now. */
  readonly #values = new Map<string, string>();
  readonly #toClient: (s: string) => string;
  readonly #fromClient: (s: string) => string;
  #waiters: (() => void)[] = [];

  constructor(
    traffic: readonly TrafficEntry[],
    readonly placeholders: [placeholder: string, actual: string][],
  ) {
    this.steps = traffic.flatMap((e, index) =>
      (e.d === "send" || e.d === "recv") && e.m ? [{ index, d: e.d, m: e.m as Msg }] : [],
    );
    this.#toClient = replacePaths(placeholders.map(([p, a]) => [p, a]));
    this.#fromClient = replacePaths(placeholders.map(([p, a]) => [a, p]));
  }

  /** The step the replay waits at (a client message), or undefined at the end. */
  get expected(): Step | undefined {
    return this.#stopped ? undefined : this.steps[this.#pos];
  }

  get finished(): boolean {
    return this.#stopped || this.#pos >= this.steps.length;
  }

  /** How far the replay got (a step index into `steps`). */
  get position(): number {
    return this.#pos;
  }

  /** Resolves true once the position moved past `since` (at once if it has), or false `ms` later. */
  progress(since: number, ms: number): Promise<boolean> {
    if (this.#pos !== since || this.finished) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.#waiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  stop(reason?: Omit<Divergence, "step">): void {
    if (reason) this.divergences.push({ step: this.steps[this.#pos]?.index ?? -1, ...reason });
    this.#stopped = true;
    this.#notify();
  }

  /** The recorded answer to a permission request the agent sent: the option id, or null for a cancel. */
  recordedPermissionAnswer(toolCallId: string): string | null | undefined {
    for (let i = this.#pos - 1; i >= 0; i--) {
      const s = this.steps[i]!;
      const p = s.m.params as { toolCall?: { toolCallId?: string } } | undefined;
      if (s.d !== "recv" || s.m.method !== "session/request_permission" || p?.toolCall?.toolCallId !== toolCallId)
        continue;
      const answer = this.steps.find((r) => r.d === "send" && r.index > s.index && r.m.id === s.m.id && !r.m.method);
      const outcome = (answer?.m.result as { outcome?: { outcome?: string; optionId?: string } } | undefined)?.outcome;
      return outcome?.outcome === "selected" ? (outcome.optionId ?? null) : null;
    }
    return undefined;
  }

  /** Whether the recorded client advertised elicitation in its first `initialize` (the replay client must too). */
  get recordedElicitation(): boolean {
    const init = this.steps.find((s) => s.d === "send" && s.m.method === "initialize");
    const caps = (init?.m.params as { clientCapabilities?: { elicitation?: unknown } } | undefined)?.clientCapabilities;
    return caps?.elicitation !== undefined && caps.elicitation !== null;
  }

  /** The recorded answer to the last `elicitation/create` the agent sent (what the person answered then). */
  recordedElicitationAnswer(): ElicitationAnswer | undefined {
    for (let i = this.#pos - 1; i >= 0; i--) {
      const s = this.steps[i]!;
      if (s.d !== "recv" || s.m.method !== "elicitation/create") continue;
      const answer = this.steps.find((r) => r.d === "send" && r.index > s.index && r.m.id === s.m.id && !r.m.method);
      const r = answer?.m.result as { action?: string; content?: Record<string, FieldValue> } | undefined;
      if (r?.action === "accept") return { action: "accept", ...(r.content ? { content: r.content } : {}) };
      return r?.action === "cancel" ? { action: "cancel" } : { action: "decline" };
    }
    return undefined;
  }

  /** A transport for one agent process of the recording (a bundle may hold several: restarts). */
  transport(): AgentTransport {
    let stop: (() => void) | undefined;
    return {
      pid: undefined,
      exited: NEVER,
      connect: (app, hooks) => {
        const toAgent = new PassThrough();
        const toClient = new PassThrough();
        const splitter = new LineSplitter(
          64 * 1024 * 1024,
          (line) => {
            if (!line.trim()) return;
            try {
              this.#receive(JSON.parse(line) as Msg);
            } catch {
              // not JSON: the client never sends that
            }
          },
          () => undefined,
        );
        toAgent.on("data", (d: Buffer) => splitter.push(d));
        this.#send = (line) => void toClient.write(line + "\n");
        const conn = app.connect(createNdJsonStream(toAgent, toClient, hooks));
        stop = () => {
          conn.close();
          toAgent.end();
          toClient.end();
        };
        this.#pump();
        return conn;
      },
      stderrTail: () => [],
      stop: async () => stop?.(),
    };
  }

  #receive(m: Msg): void {
    if (this.finished) {
      this.extra++;
      return;
    }
    this.#queue.push(m);
    this.#pump();
  }

  #pump(): void {
    const before = this.#pos;
    while (!this.finished && this.#send) {
      const step = this.steps[this.#pos]!;
      if (step.d === "recv") {
        this.#send(JSON.stringify(this.#outgoing(step.m)));
        this.#pos++;
        continue;
      }
      const actual = this.#queue.shift();
      if (!actual) break;
      this.#check(step, actual);
      if (!this.#stopped) this.#pos++;
    }
    if (this.#pos !== before || this.finished) this.#notify();
  }

  #notify(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  #outgoing(m: Msg): Msg {
    const mapped = mapStrings(m, (s) => this.#values.get(s) ?? this.#toClient(s));
    // a response to a client request carries the id the client uses now
    if (mapped.method === undefined && mapped.id !== undefined) {
      const key = JSON.stringify(m.id);
      if (this.#ids.has(key)) return { ...mapped, id: this.#ids.get(key) };
    }
    return mapped;
  }

  #check(step: Step, raw: Msg): void {
    const expected = describeStep(this.steps, step);
    const actual = mapStrings(raw, this.#fromClient);
    const isRequest = typeof step.m.method === "string";
    const sameKind = isRequest
      ? actual.method === step.m.method
      : actual.method === undefined && JSON.stringify(actual.id) === JSON.stringify(step.m.id);
    if (!sameKind) {
      const got = typeof actual.method === "string" ? actual.method : `a response to id ${JSON.stringify(actual.id)}`;
      return this.stop({
        kind: "unexpected",
        expected,
        replayed: got,
        message: `the client sent ${got} where the recording has ${expected}; the replay stops here`,
      });
    }
    if (isRequest && step.m.id !== undefined) this.#ids.set(JSON.stringify(step.m.id), raw.id);
    this.#learnValues(step.m, actual);
    const method = describeStep(this.steps, step).replace(/^response to /, "");
    const a = comparable(step.m, { method });
    const now = comparable(
      mapStrings(actual, (s) => this.#recordedValue(s)),
      { method },
    );
    const b = method === "initialize" ? withoutAddedCapabilities(a, now) : now;
    if (b !== now && firstDifference(now, b) !== undefined)
      this.notes.push(`initialize: capabilities this client added since the recording were left out of the comparison`);
    const path = firstDifference(a, b);
    if (path === undefined) {
      this.matched++;
      return;
    }
    this.divergences.push({
      step: step.index,
      kind: "different",
      expected,
      path,
      recorded: valueAt(a, path),
      replayed: valueAt(b, path),
      message: `${expected}: ${path} differs`,
    });
  }

  /** Terminal ids the client made up (recorded ↔ now), so later agent requests name the right terminal. */
  #learnValues(recorded: Msg, actual: Msg): void {
    const walk = (r: unknown, a: unknown) => {
      if (!r || !a || typeof r !== "object" || typeof a !== "object") return;
      for (const [k, v] of Object.entries(r)) {
        const w = (a as Record<string, unknown>)[k];
        if (k === "terminalId" && typeof v === "string" && typeof w === "string") this.#values.set(v, w);
        else walk(v, w);
      }
    };
    walk(recorded, actual);
  }

  #recordedValue(s: string): string {
    for (const [rec, now] of this.#values) if (now === s) return rec;
    return s;
  }
}
