// The redaction runs only the patterns a text can match (src/core/redact.ts): held here to the redaction before
// that change (bench/baselines/redact-before.ts), byte for byte, over recorded-like traffic with and without
// secrets and over random strings built from the patterns' own pieces.
import assert from "node:assert/strict";
import { test } from "node:test";
import { redactSecrets as before } from "../../../bench/baselines/redact-before";
import { corpus, fuzzText, rng, SECRET_SAMPLES } from "../../../bench/redact-corpus";
import { redactedLine, type TrafficEntry } from "../../../src/core/bundle/traffic";
import { containsSecret, REDACTED, redactSecrets } from "../../../src/core/redact";

test("recorded-like traffic without secrets: the same lines as before, and usage updates are left whole", () => {
  let same = 0;
  for (const m of corpus(1, 3000)) {
    const line = JSON.stringify(m);
    assert.equal(redactSecrets(line), before(line), line.slice(0, 200));
    if (redactSecrets(line) === line) same++;
  }
  assert.ok(same > 2500, `${same} of 3000 lines untouched`); // the rest: hashes near "key" words, as before
  const usage = JSON.stringify(corpus(2, 400).filter((m) => JSON.stringify(m).includes("usage_update"))[0]);
  assert.match(usage, /inputTokens/);
  assert.equal(redactSecrets(usage), usage);
});

test("recorded-like traffic with secrets: the same lines as before, and no secret sample is left", () => {
  let redacted = 0;
  for (const m of corpus(3, 3000, 0.3)) {
    const line = JSON.stringify(m);
    const out = redactSecrets(line);
    assert.equal(out, before(line), line.slice(0, 200));
    if (out !== line) redacted++;
  }
  assert.ok(redacted > 700, `${redacted} lines redacted`);
  for (const s of SECRET_SAMPLES) {
    assert.ok(containsSecret(s), s);
    // a quoted pair inside a JSON string is escaped (`\"apiKey\": \"…\"`): neither redaction sees it as a pair
    if (s.startsWith('"')) continue;
    const line = JSON.stringify({ text: `see ${s} here` });
    assert.ok(redactSecrets(line).includes(REDACTED), line);
  }
});

test("random strings from the patterns' pieces: the same output as before (100,000 of them)", () => {
  const rand = rng(42);
  let changed = 0;
  for (let i = 0; i < 100_000; i++) {
    const s = fuzzText(rand);
    const out = redactSecrets(s);
    if (out !== before(s)) assert.fail(`differs on ${JSON.stringify(s)}:\n now    ${out}\n before ${before(s)}`);
    if (out !== s) changed++;
  }
  assert.ok(changed > 5_000, `${changed} redacted`); // the corpus does reach the patterns
});

test("the traffic line is the redaction of the entry's JSON, as before", () => {
  let t = 1_700_000_000_000;
  for (const m of corpus(5, 1500, 0.2)) {
    const e: TrafficEntry = { t: t++, d: "recv", m };
    const raw = JSON.stringify(e);
    const want = before(raw);
    let whole = true;
    try {
      JSON.parse(want);
    } catch {
      whole = false;
    }
    const note = JSON.stringify({ t: e.t, d: "note", x: "a message was dropped: redacting it broke its JSON" });
    assert.equal(redactedLine(e), whole ? want : note);
    // as the recorder writes a sent message: from the JSON the transport sent, the same line
    assert.equal(redactedLine(e, JSON.stringify(m)), redactedLine(e));
  }
  // a message with env values: they are scrubbed, the JSON as sent is not used
  const m = { jsonrpc: "2.0", id: 8, method: "session/new", params: { cwd: "/", env: [{ name: "A", value: "v" }] } };
  const e: TrafficEntry = { t: 1, d: "send", m };
  assert.equal(redactedLine(e, JSON.stringify(m)), redactedLine(e));
  assert.ok(!redactedLine(e).includes('"v"') && redactedLine(e).includes(REDACTED));
});

test("hand-written: key/value pairs keep their label and lose their value, counters stay", () => {
  const cases: [string, string][] = [
    ['{"apiKey": "Zq8v1LmN0pQ7rS2t"}', '{"apiKey": "[REDACTED]"}'],
    ['{"apiKey":"Zq8v1LmN0pQ7rS2t","inputTokens":123456}', '{"apiKey":"[REDACTED]","inputTokens":123456}'],
    ['{"OPENAI_API_KEY":"abcdef123456"}', '{"OPENAI_API_KEY":"[REDACTED]"}'],
    ['{"access_token":"ya29.a0AfH6SMB"}', '{"access_token":"[REDACTED]"}'],
    ['{"token": "1234567"}', '{"token": "[REDACTED]"}'],
    [
      '{"inputTokens":1234567,"outputTokens":89,"totalTokens":1234656}',
      '{"inputTokens":1234567,"outputTokens":89,"totalTokens":1234656}',
    ],
    [
      '{"sessionUpdate":"usage_update","used":53000,"size":200000}',
      '{"sessionUpdate":"usage_update","used":53000,"size":200000}',
    ],
    ["the key point: keep it simple", "the key point: keep it simple"],
    ["Authorization: Bearer abc.def.ghi123456789", "Authorization: Bearer [REDACTED]"],
    ["export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "export GITHUB_TOKEN=[REDACTED]"],
  ];
  for (const [input, want] of cases) {
    assert.equal(redactSecrets(input), want, input);
    assert.equal(before(input), want, `(before) ${input}`);
  }
});
