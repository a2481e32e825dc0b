/**
 * ACP pipe throughput: 100k `agent_message_chunk`s from an in-process agent through the engine (NDJSON over
 * in-memory pipes → line split → protocol log → JSON.parse → per-session queue → normalize → turn events),
 * next to the raw rate of `JSON.parse` per line over the same bytes. Goals: ≥ 50k updates/s and ≥ 30% of
 * the raw parse rate. Prints figures; asserts nothing.
 */
import { agent, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { createAgentRuntime } from "../src/core/acp/agent-runtime";
import { createNdJsonStream } from "../src/core/acp/ndjson-stream";
import { ProtocolLog } from "../src/core/acp/protocol-log";
import type { AgentTransport } from "../src/core/acp/transport";

export interface AcpBenchResult {
  updates: number;
  bytes: number;
  engineUpdatesPerSec: number;
  rawParsePerSec: number;
  ratio: number;
}

const SESSION = "bench-session";
const chunk = (i: number) => ({
  sessionUpdate: "agent_message_chunk" as const,
  content: { type: "text" as const, text: `token ${i} ` },
});

/** Lines per second of `JSON.parse` over `bytes` split at newlines: the best of three runs. */
function rawParseRate(bytes: Buffer): number {
  let best = 0;
  for (let run = 0; run < 3; run++) {
    const t = performance.now();
    let parsed = 0;
    for (const line of bytes.toString("utf8").split("\n")) if (line && JSON.parse(line)) parsed++;
    best = Math.max(best, (parsed / (performance.now() - t)) * 1000);
  }
  return best;
}

export async function benchAcp(updates = 100_000): Promise<AcpBenchResult> {
  const cwd = mkdtempSync(join(tmpdir(), "acp-bench-"));
  try {
    // The agent's bytes, generated once, so both measurements read exactly the same input.
    const lines: string[] = [];
    for (let i = 0; i < updates; i++)
      lines.push(
        JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: SESSION, update: chunk(i) } }),
      );
    const bytes = Buffer.from(lines.join("\n") + "\n");
    const rawParsePerSec = rawParseRate(bytes);

    // The agent answers initialize/new through the SDK; its prompt turn writes the recorded bytes straight
    // onto the wire, so the figure is the engine's cost, not the SDK agent's serialization.
    const toAgent = new PassThrough();
    const toClient = new PassThrough({ highWaterMark: 1 << 20 });
    const fake = agent({ name: "bench-agent" })
      .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }))
      .onRequest(methods.agent.session.new, () => ({ sessionId: SESSION }))
      .onRequest(methods.agent.session.prompt, async () => {
        for (let off = 0; off < bytes.length; off += 65536) {
          await new Promise<void>((resolve) => toClient.write(bytes.subarray(off, off + 65536), () => resolve()));
        }
        return { stopReason: "end_turn" };
      });
    const transport: AgentTransport = {
      pid: undefined,
      exited: new Promise(() => {}),
      connect(app, hooks) {
        fake.connect(ndJsonStream(Writable.toWeb(toClient), Readable.toWeb(toAgent) as ReadableStream<Uint8Array>));
        return app.connect(createNdJsonStream(toAgent, toClient, hooks));
      },
      stderrTail: () => [],
      stop: async () => {
        toAgent.end();
        toClient.end();
      },
    };
    const rt = createAgentRuntime(
      { agent: { id: "bench", displayName: "Bench", command: "/bin/false", args: [] }, cwd },
      { transport },
    );
    const { sessionId } = await rt.ensureSession();
    let received = 0;
    const t0 = performance.now();
    for await (const e of rt.runTurn(sessionId, "go")) if (e.type === "text") received++;
    const engineMs = performance.now() - t0;
    await rt.close();
    if (received !== updates) throw new Error(`engine delivered ${received} of ${updates} updates`);

    // Engine receive path alone, fed the recorded bytes (no agent-side serialization in the figure).
    let streamed = 0;
    const input = new PassThrough();
    const stream = createNdJsonStream(new PassThrough(), input, {
      log: new ProtocolLog(),
      onSessionUpdate: () => (streamed++, true),
    });
    void stream.readable.getReader().read();
    const t1 = performance.now();
    for (let off = 0; off < bytes.length; off += 65536) input.write(bytes.subarray(off, off + 65536));
    while (streamed < updates) await new Promise((r) => setImmediate(r));
    const receiveMs = performance.now() - t1;

    const engineUpdatesPerSec = (updates / engineMs) * 1000;
    const receivePerSec = (updates / receiveMs) * 1000;
    console.log(`acp: ${updates} agent_message_chunk updates, ${(bytes.length / 1e6).toFixed(1)} MB`);
    console.log(
      `  engine, wire → turn events  : ${Math.round(engineUpdatesPerSec).toLocaleString("en")} updates/s (goal ≥ 50,000)`,
    );
    console.log(`  engine receive path only    : ${Math.round(receivePerSec).toLocaleString("en")} updates/s`);
    console.log(`  raw JSON.parse per line     : ${Math.round(rawParsePerSec).toLocaleString("en")} lines/s`);
    console.log(
      `  ratio engine / raw parse    : ${((engineUpdatesPerSec / rawParsePerSec) * 100).toFixed(1)}% (goal ≥ 30%); receive path ${((receivePerSec / rawParsePerSec) * 100).toFixed(1)}%`,
    );
    return {
      updates,
      bytes: bytes.length,
      engineUpdatesPerSec,
      rawParsePerSec,
      ratio: engineUpdatesPerSec / rawParsePerSec,
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchAcp(Number(process.argv[2] ?? 100_000)).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
