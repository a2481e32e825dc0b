/**
 * Redacts key-like strings before text is persisted in a snapshot or indexed. Conservative on purpose:
 * a redacted false positive costs a little context, a leaked key costs a rotation.
 */
export const REDACTED = "[REDACTED]";

const PATTERNS: RegExp[] = [
  // PEM private key blocks (whole block, across lines)
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // OpenAI / Anthropic style keys: sk-..., sk-ant-..., sk-proj-...
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  // AWS access key ids
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // GitHub tokens
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  // Slack tokens
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  // Google API keys
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
];

// Bearer tokens and key=value / key: value pairs: keep the label, redact the value
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{12,}/gi;
const KEY_VALUE =
  /\b([A-Za-z0-9_]*?(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret(?:[_-]?key)?|client[_-]?secret|password|passwd|token|private[_-]?key)["']?\s*[:=]\s*["']?)([^\s"',;]{6,})/gi;
// High-entropy hex/base64 runs (≥ 32) within a few words after a key-ish word
const KEYISH_BLOB =
  /\b((?:key|token|secret|credential|auth|signature)[\w-]*(?:\W{1,5}[\w-]{1,12}){0,3}?\W{1,5})([A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{32,}={0,2})/gi;

/**
 * A word every pattern above needs (case-insensitive, so a superset of the case-sensitive ones): text without any
 * of them has nothing to redact, and one scan for them is much cheaper than the patterns over a long line.
 */
const TRIGGER =
  /sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|AIza|bearer|key|token|secret|passw|credential|auth|signature/i;

export function redactSecrets(text: string): string {
  if (!text || !TRIGGER.test(text)) return text;
  let out = text;
  for (const re of PATTERNS) out = out.replace(re, REDACTED);
  out = out.replace(BEARER, (_m, label: string) => label + REDACTED);
  out = out.replace(KEY_VALUE, (m, label: string, value: string) => (value === REDACTED ? m : label + REDACTED));
  out = out.replace(KEYISH_BLOB, (m, label: string, value: string) => (looksRandom(value) ? label + REDACTED : m));
  return out;
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
