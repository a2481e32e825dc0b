/**
 * Secret redaction applied before anything reaches the recall index. Patterns are deliberately broad: a false
 * positive costs one unsearchable token, a false negative leaks a credential into a cache file.
 */
const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `API_KEY=...`, `"token": "..."`, `Authorization: Bearer ...`: keep the name, drop the value. */
const KEY_VALUE =
  /\b([A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passwd|password|auth|credential|private[_-]?key)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?([^\s"',;]{8,})/gi;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{12,}/g;

export const REDACTED = "[REDACTED]";

export function redactSecrets(text: string): string {
  let out = text;
  for (const re of PATTERNS) out = out.replace(re, REDACTED);
  out = out.replace(BEARER, `$1 ${REDACTED}`);
  out = out.replace(KEY_VALUE, (whole, name: string, sep: string, value: string) =>
    value === REDACTED || value.startsWith("[REDACTED") ? whole : `${name}${sep}${REDACTED}`,
  );
  return out;
}
