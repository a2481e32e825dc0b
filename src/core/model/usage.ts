/**
 * Token usage of one prompt turn, as agents report it when the turn ends: ACP's (unstable) `PromptResponse.usage`
 * or gemini-cli's `_meta.quota`. Only reported numbers: a field the agent did not send is absent, never guessed.
 */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
  /** As reported; else input + output + cached reads/writes + thoughts. */
  totalTokens: number;
  /** Split per model, when the agent reports one (gemini-cli: its router model and the main model). */
  byModel?: { model: string; inputTokens: number; outputTokens: number }[];
}

/** What the agent reported about the session it opened for a thread (written as a `session_open` record). */
export interface AgentInfoRef {
  name: string;
  version?: string;
}
