/**
 * Strips text the harness injected into "user" messages (environment blocks, IDE context, slash-command wrappers),
 * so bodies and `--recent` previews hold what the person actually typed.
 */

const CODEX_BLOCKS = [
  "user_instructions",
  "environment_context",
  "apps_instructions",
  "skills_instructions",
  "plugins_instructions",
  "collaboration_mode",
  "realtime_conversation",
  "user_shell_command",
  "turn_aborted",
  "INSTRUCTIONS",
];
const CLAUDE_BLOCKS = [
  "command-name",
  "command-message",
  "command-args",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "bash-input",
  "bash-stdout",
  "bash-stderr",
  "system-reminder",
];

const blockRe = (tags: string[]) => new RegExp(`<(${tags.join("|")})(?:\\s[^>]*)?>[\\s\\S]*?(?:</\\1>|$)`, "g");
const CODEX_RE = blockRe(CODEX_BLOCKS);
const CLAUDE_RE = blockRe(CLAUDE_BLOCKS);
const CODEX_REQUEST_MARKER = "## My request for Codex:";
const AGENTS_MD_HEADER = /^# AGENTS\.md instructions for [^\n]*\n?/;

export function stripCodexInjected(text: string): string {
  const marker = text.lastIndexOf(CODEX_REQUEST_MARKER);
  let out = marker >= 0 ? text.slice(marker + CODEX_REQUEST_MARKER.length) : text;
  out = out.replace(CODEX_RE, "").replace(AGENTS_MD_HEADER, "");
  return out.trim();
}

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

export function stripClaudeInjected(text: string): string {
  const out = text.replace(CLAUDE_RE, "").trim();
  return INTERRUPTED.test(out) ? "" : out;
}
