/**
 * Redaction per message of the traffic recorder (#24): a recorded-like stream (60% agent_message_chunk, 30%
 * usage_update, 10% tool_call_update with ~10 KB of output; bench/redact-corpus.ts) redacted as its JSON line by
 * the redaction before (bench/baselines/redact-before.ts: every pattern once a trigger word is seen) and now (only
 * the patterns the line can match), in the same run; per kind and for the mix, with the ratio. CPU µs per message (median of 7 rounds). Figures only.
 * The mix with secrets is checked against its intended output (each planted secret masked as written by hand in
 * MASKED_SAMPLES, the rest of the line as the same redaction leaves it without the secret), for each redaction
 * on its own: the one before misses the escaped pairs (`\"apiKey\": \"…\"`) redacted since; it is measured,
 * not held to the other's output. The rows without secrets are held line by line by test/unit/core/redact-differential.test.ts.
 */
import { redactSecrets as before } from "./baselines/redact-before";
import { corpus, message, missesIntended, rng, type CorpusKind } from "./redact-corpus";
import { redactSecrets } from "../src/core/redact";

function perMessageUs(lines: string[], redact: (s: string) => string, rounds = 7): number {
  let sink = 0;
  for (const l of lines) sink += redact(l).length; // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage(); // CPU time: the machine may be shared, wall time would count the others
    for (const l of lines) sink += redact(l).length;
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / lines.length);
  }
  if (sink < 0) console.log(sink);
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

function row(name: string, lines: string[], intended?: string[]): void {
  if (intended) {
    const now = missesIntended(redactSecrets, lines, intended);
    const was = missesIntended(before, lines, intended);
    console.log(`${name}: lines not as intended (a planted secret left or more changed): before ${was}, now ${now}`);
    if (now) throw new Error(`the redaction misses the intended output on ${now} of ${lines.length} lines`);
  }
  const old = perMessageUs(lines, before);
  const now = perMessageUs(lines, redactSecrets);
  const kb = lines.reduce((n, l) => n + l.length, 0) / lines.length / 1024;
  console.log(
    `${name.padEnd(22)} ${String(lines.length).padStart(5)} msgs, ${kb.toFixed(1).padStart(5)} KB avg: before ${old.toFixed(2).padStart(7)} µs/msg, now ${now.toFixed(2).padStart(7)} µs/msg, ${(old / now).toFixed(1)}x`,
  );
}

const rand = rng(7);
const of = (kind: CorpusKind, n: number) => Array.from({ length: n }, () => JSON.stringify(message(rand, kind)));
console.log("redaction of one traffic line");
row("usage_update", of("usage_update", 3000));
row("agent_message_chunk", of("agent_message_chunk", 3000));
row("tool_call_update 10KB", of("tool_call_update", 300));
row(
  "streaming mix",
  corpus(8, 3000).map((m) => JSON.stringify(m)),
);
row(
  "mix, 5% with a secret",
  corpus(9, 3000, 0.05).map((m) => JSON.stringify(m)),
  corpus(9, 3000, 0.05, true).map((m) => JSON.stringify(m)),
);
// a file read without any key word (most long lines): one scan, as before
const plain =
  "the a of to and in is it that for on with as file line test build run agent import from const return value"
    .split(" ")
    .map((w, i, ws) => `${w} ${ws[(i * 7) % ws.length]}`);
const fileRead = (i: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: i,
    result: { content: Array.from({ length: 4000 }, (_, j) => plain[(i + j) % plain.length]).join("\n") },
  });
row(
  "file read, no key word",
  Array.from({ length: 60 }, (_, i) => fileRead(i)),
);
