/**
 * Redacts key-like strings before text is persisted in a snapshot or indexed. Conservative on purpose:
 * a redacted false positive costs a little context, a leaked key costs a rotation.
 */
export const REDACTED = "[REDACTED]";

/**
 * Where a secret may start: where `\b` would (no word character before it), or right after the letter of an escape
 * (`\n`, `\t`, …): a file's lines inside a traffic line read `…\nAKIA…`, and `\b` sees no boundary between `n`
 * and `A`. Written as one lookbehind (not `\b|(?<=…)`, which made a 10 KB tool output 1.6x slower to scan).
 */
const START = String.raw`(?<!(?<!\\)\w)`;
const starting = (source: string, flags: string) => new RegExp(START + source, flags);

/**
 * The patterns, each run only when one scan of the text (GATE) saw what any match of it starts with. The scan is
 * of the text as given, which is sound because a replacement only puts "[REDACTED]" (brackets, capitals, no key
 * word) where a match was: it cannot create what a later pattern's gate looks for. The output is the same as
 * running every pattern (the differential test holds it to bench/baselines/redact-before.ts); what changes is the
 * cost of a long line that only says "tokens" or "key".
 */
const PATTERNS: RegExp[] = [
  // PEM private key blocks (whole block, across lines)
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // OpenAI / Anthropic style keys: sk-..., sk-ant-..., sk-proj-...
  starting(String.raw`sk-[A-Za-z0-9_-]{16,}`, "g"),
  // AWS access key ids
  starting(String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}\b`, "g"),
  // GitHub tokens
  starting(String.raw`gh[pousr]_[A-Za-z0-9]{20,}\b`, "g"),
  starting(String.raw`github_pat_[A-Za-z0-9_]{20,}\b`, "g"),
  // Slack tokens
  starting(String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`, "g"),
  // Google API keys
  starting(String.raw`AIza[0-9A-Za-z_-]{35}\b`, "g"),
];

// Bearer tokens and key=value / key: value pairs: keep the label, redact the value. The quotes may be escaped
// (`\"apiKey\": \"…\"`: a config file's text inside a JSON line, as the traffic file holds an agent's reads); the
// value then stops before the escaped quote, so the escape survives and the line stays valid JSON.
const BEARER = starting(String.raw`(Bearer\s+)[A-Za-z0-9._~+/=-]{12,}`, "gi");
const KEY_VALUE =
  /\b([A-Za-z0-9_]*?(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret(?:[_-]?key)?|client[_-]?secret|password|passwd|token|private[_-]?key)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)((?:[^\s"'\\,;]|\\(?!["'])){6,})/gi;
// High-entropy hex/base64 runs (≥ 32) within a few words after a key-ish word
const KEYISH_BLOB = starting(
  String.raw`((?:key|token|secret|credential|auth|signature)[\w-]*(?:\W{1,5}[\w-]{1,12}){0,3}?\W{1,5})([A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{32,}={0,2})`,
  "gi",
);
const KEYISH_WORD = /key|token|secret|credential|auth|signature/i;
/** The shortest value KEYISH_BLOB takes (its hex and base64 alternatives are runs of `[A-Za-z0-9+/_-]`). */
const BLOB_RUN = 32;

/**
 * Group i + 1 is what PATTERNS[i] starts with, then BEARER's, then KEY_VALUE's (each of its labels ends in one of
 * these words right before the `:` or `=`; `"inputTokens":` does not). Case-insensitive, so a superset. No two
 * alternatives can match at the same place (they differ in their first two characters), so stepping one character
 * after a match finds every place.
 */
const GATE =
  /(-----BEGIN )|(sk-)|(AKIA|ASIA)|(gh[pousr]_)|(github_pat_)|(xox[abposr]-)|(AIza)|(bearer\s)|((?:key|token|secret|passw(?:or)?d)(?:\\?["'])?\s*[:=])/gi;
const BEARER_GATE = PATTERNS.length;
const KEY_VALUE_GATE = PATTERNS.length + 1;

/**
 * A word every pattern above needs (case-insensitive, so a superset of the case-sensitive ones): text without any
 * of them has nothing to redact. One scan that stops at the first one: most long lines (file contents, terminal
 * output) have none and pay this scan only.
 */
const TRIGGER =
  /sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|AIza|bearer|key|token|secret|passw|credential|auth|signature/i;

export function redactSecrets(text: string): string {
  if (!text || !TRIGGER.test(text)) return text;
  const seen = gates(text);
  const keyish = KEYISH_WORD.test(text) && hasBlobRun(text);
  if (!seen && !keyish) return text;
  let out = text;
  for (let i = 0; i < PATTERNS.length; i++) if (seen & (1 << i)) out = out.replace(PATTERNS[i], REDACTED);
  if (seen & (1 << BEARER_GATE)) out = out.replace(BEARER, (_m, label: string) => label + REDACTED);
  if (seen & (1 << KEY_VALUE_GATE))
    out = out.replace(KEY_VALUE, (m, label: string, value: string) => (value === REDACTED ? m : label + REDACTED));
  if (keyish)
    out = out.replace(KEYISH_BLOB, (m, label: string, value: string) => (looksRandom(value) ? label + REDACTED : m));
  return out;
}

/** Bit i set: GATE's group i + 1 was seen in `text`. */
function gates(text: string): number {
  let seen = 0;
  GATE.lastIndex = 0;
  for (let m = GATE.exec(text); m; m = GATE.exec(text)) {
    for (let g = 1; g < m.length; g++) if (m[g] !== undefined) seen |= 1 << (g - 1);
    GATE.lastIndex = m.index + 1;
  }
  return seen;
}

/** Whether `text` has a run of BLOB_RUN characters of `[A-Za-z0-9+/_-]` (what KEYISH_BLOB's value needs). */
function hasBlobRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const inRun =
      (c >= 0x61 && c <= 0x7a) || // a-z
      (c >= 0x41 && c <= 0x5a) || // A-Z
      (c >= 0x30 && c <= 0x39) || // 0-9
      c === 0x2b || // +
      c === 0x2f || // /
      c === 0x5f || // _
      c === 0x2d; // -
    if (!inRun) run = 0;
    else if (++run >= BLOB_RUN) return true;
  }
  return false;
}

/** A run looks like a key when it mixes character classes (not a word or a path of one class). */
function looksRandom(value: string): boolean {
  if (/^[a-f0-9]+$/i.test(value)) return /\d/.test(value) && /[a-f]/i.test(value);
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(value)).length;
  return classes >= 2;
}

/** Whether `text` still contains anything we would redact (tests and snapshot checks). */
export function containsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
