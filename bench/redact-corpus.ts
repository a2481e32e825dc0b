/**
 * Recorded-like ACP traffic for the redaction bench and its differential test: usage updates (`inputTokens`,
 * `usage_update`: they say "token" and hold no secret), agent_message_chunk prose (now and then "key", "token",
 * "auth"), tool_call_update with ~10 KB of file output (paths, identifiers, hashes), and, with `secrets`, a share
 * of them carrying a real-looking secret somewhere. Also `fuzzText`: strings stitched from the pieces the patterns
 * look for (prefixes, labels, separators, quotes, runs), to reach the patterns' edges.
 */
import { rng } from "./recall-corpus";

export { rng };

const WORDS =
  "the a of to and in is it that for on with as this be are was file line test build run agent session turn thread key token auth secret tokens keyboard monkey author signature credentials password passwd bearer apiKey".split(
    " ",
  );
const IDENT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
const HEX = "0123456789abcdef";

/** Real-looking secrets of every kind the redaction knows (each on its own is redacted). */
export const SECRET_SAMPLES = [
  "sk-proj-abcdefghijklmnopqrstuvwx1234",
  "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA",
  "AKIAIOSFODNN7EXAMPLE",
  "ASIAIOSFODNN7EXAMPL2",
  "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
  "xoxb-1234567890-abcdefghij",
  "AIzaSyA1234567890abcdefghijklmnopqrstuv",
  "Bearer abc.def.ghi123456789",
  "api_key=hunter2hunter2",
  '"apiKey": "Zq8v1LmN0pQ7rS2t"',
  '"password":"c0rrect-horse"',
  "client_secret: 8f7e6d5c4b3a",
  "token for the CI: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "signature = QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlq==",
  "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----",
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA",
];

/**
 * What each of SECRET_SAMPLES should become, written by hand (same index): the secret masked, its label kept.
 * A private key block without its END line masks the rest of the text (nothing says where the key stops):
 * `TO_THE_END`.
 */
export const TO_THE_END = "[REDACTED]\u0000to-the-end";
export const MASKED_SAMPLES = [
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "[REDACTED]",
  "Bearer [REDACTED]",
  "api_key=[REDACTED]",
  '"apiKey": "[REDACTED]"',
  '"password":"[REDACTED]"',
  "client_secret: [REDACTED]",
  "token for the CI: [REDACTED]",
  "signature = [REDACTED]",
  "[REDACTED]",
  TO_THE_END,
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}
function chars(rand: () => number, alphabet: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}
function prose(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(rand, WORDS));
  return out.join(" ");
}

/** ~`size` chars of file output: source lines with paths, identifiers and the odd hash. */
function fileOutput(rand: () => number, size: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < size) {
    const r = rand();
    const line =
      r < 0.15
        ? `import { ${chars(rand, IDENT, 8)} } from "src/core/${chars(rand, IDENT, 10)}/${chars(rand, IDENT, 12)}-${chars(rand, IDENT, 9)}";`
        : r < 0.2
          ? `// commit ${chars(rand, HEX, 40)}`
          : r < 0.3
            ? `  const ${chars(rand, IDENT, 6)}Tokens = usage.inputTokens + usage.outputTokens; // ${prose(rand, 4)}`
            : `  ${prose(rand, 3 + Math.floor(rand() * 8))}(${chars(rand, IDENT, 5)}, ${Math.floor(rand() * 1e6)});`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

const update = (sessionId: string, u: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  method: "session/update",
  params: { sessionId, update: u },
});

export type CorpusKind = "usage_update" | "agent_message_chunk" | "tool_call_update";

/** One recorded-like message of `kind`; `secret` puts a secret sample into its text. */
export function message(rand: () => number, kind: CorpusKind, secret?: string): Record<string, unknown> {
  const sid = `sess-${chars(rand, HEX, 8)}`;
  if (kind === "usage_update") {
    const used = Math.floor(rand() * 200_000);
    return update(sid, {
      sessionUpdate: "usage_update",
      used,
      size: 200_000,
      cost: { amount: rand() * 3, currency: "USD" },
      _meta: { inputTokens: used, outputTokens: Math.floor(rand() * 9000), cachedReadTokens: 1200 },
      ...(secret ? { note: secret } : {}),
    });
  }
  if (kind === "agent_message_chunk") {
    const text = prose(rand, 2 + Math.floor(rand() * 30));
    return update(sid, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: secret ? `${text} ${secret} ${prose(rand, 3)}` : text },
    });
  }
  const out = fileOutput(rand, 10_000);
  // a secret on a line of its own (glued inside an identifier it is no longer one: `inputTBearer …okens`); in the
  // JSON line it follows the `n` of the `\n` escape
  const at = out.indexOf("\n", Math.floor(rand() * out.length)) + 1;
  return update(sid, {
    sessionUpdate: "tool_call_update",
    toolCallId: `call_${chars(rand, IDENT, 24)}`,
    status: "completed",
    content: [
      {
        type: "content",
        content: { type: "text", text: secret ? `${out.slice(0, at)}${secret}\n${out.slice(at)}` : out },
      },
    ],
  });
}

/**
 * `n` messages in the streaming mix (60% message chunks, 30% usage updates, 10% tool outputs); `secrets` is the
 * share that carries a secret sample. With `masked`, the same messages (same seed, same draws) carry each
 * sample's MASKED_SAMPLES form instead: what a redaction should turn the first ones into.
 */
export function corpus(seed: number, n: number, secrets = 0, masked = false): Record<string, unknown>[] {
  const rand = rng(seed);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    const kind: CorpusKind = r < 0.6 ? "agent_message_chunk" : r < 0.9 ? "usage_update" : "tool_call_update";
    const secret = rand() < secrets ? pick(rand, SECRET_SAMPLES) : undefined;
    out.push(message(rand, kind, secret && masked ? MASKED_SAMPLES[SECRET_SAMPLES.indexOf(secret)] : secret));
  }
  return out;
}

const END_MARK = JSON.stringify(TO_THE_END).slice(1, -1);

/** The line a redaction should give, as input: the masked line, cut after a TO_THE_END mask. */
function intendedInput(maskedLine: string): string {
  const at = maskedLine.indexOf(END_MARK);
  return at < 0 ? maskedLine : maskedLine.slice(0, at) + "[REDACTED]";
}

/**
 * How many of `lines` (JSON lines of `corpus(…, secrets)`) `redact` does not turn into their intended output
 * (`maskedLines`, the same `corpus(…, secrets, true)`): a planted secret left, or more changed than the secret.
 * The text around the secret is held to what the same `redact` makes of it without the secret, so its
 * conservative masks of hashes near key words count as intended.
 */
export function missesIntended(redact: (s: string) => string, lines: string[], maskedLines: string[]): number {
  let n = 0;
  for (let i = 0; i < lines.length; i++) if (redact(lines[i]!) !== redact(intendedInput(maskedLines[i]!))) n++;
  return n;
}

const PIECES = [
  ...WORDS,
  "sk-",
  "AKIA",
  "ASIA",
  "ghp_",
  "gho_",
  "github_pat_",
  "xoxb-",
  "xoxz-",
  "AIza",
  "Bearer ",
  "bearer\t",
  "api_key",
  "api-key",
  "access_token",
  "auth-token",
  "client_secret",
  "secret_key",
  "private-key",
  "credential",
  "-----BEGIN RSA PRIVATE KEY-----",
  "-----BEGIN CERTIFICATE-----",
  "-----END RSA PRIVATE KEY-----",
  "\n",
  " ",
  "  ",
  ":",
  "=",
  '"',
  "'",
  ",",
  ";",
  "/",
  "+",
  "==",
  "-",
  "_",
  "[REDACTED]",
  "{",
  "}",
];

/** A random string stitched from the patterns' pieces, runs of identifier, hex and base64 characters. */
export function fuzzText(rand: () => number): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(rand() * 24);
  for (let i = 0; i < n; i++) {
    const r = rand();
    parts.push(
      r < 0.55
        ? pick(rand, PIECES)
        : r < 0.7
          ? chars(rand, IDENT, 1 + Math.floor(rand() * 40))
          : r < 0.85
            ? chars(rand, HEX, 1 + Math.floor(rand() * 70))
            : r < 0.95
              ? chars(rand, IDENT + "+/-", 20 + Math.floor(rand() * 30))
              : pick(rand, SECRET_SAMPLES),
    );
  }
  return parts.join("");
}
