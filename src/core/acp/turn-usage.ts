/**
 * Reads the token usage an agent reports at the end of a prompt turn. Two shapes are seen in the wild:
 *  - ACP's `PromptResponse.usage` (unstable "end turn token usage"): `{inputTokens, outputTokens, totalTokens,
 *    thoughtTokens?, cachedReadTokens?, cachedWriteTokens?}` (claude-agent-acp, opencode; per turn);
 *  - gemini-cli's `_meta.quota`: `{token_count: {input_tokens, output_tokens}, model_usage: [{model, token_count}]}`.
 * Anything else is no usage: numbers are never made up.
 */
import type { TurnUsage } from "../model/usage";
import { isObj, type Obj } from "../util/guards";

const count = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;

function fromAcp(u: Obj): TurnUsage | undefined {
  const inputTokens = count(u.inputTokens);
  const outputTokens = count(u.outputTokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const out: TurnUsage = { inputTokens, outputTokens, totalTokens: 0 };
  const thought = count(u.thoughtTokens);
  const read = count(u.cachedReadTokens);
  const write = count(u.cachedWriteTokens);
  if (thought !== undefined) out.thoughtTokens = thought;
  if (read !== undefined) out.cachedReadTokens = read;
  if (write !== undefined) out.cachedWriteTokens = write;
  out.totalTokens = count(u.totalTokens) ?? inputTokens + outputTokens + (thought ?? 0) + (read ?? 0) + (write ?? 0);
  return out;
}

function fromGeminiQuota(q: Obj): TurnUsage | undefined {
  const tc = isObj(q.token_count) ? q.token_count : undefined;
  const inputTokens = count(tc?.input_tokens);
  const outputTokens = count(tc?.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const byModel = (Array.isArray(q.model_usage) ? q.model_usage : []).flatMap((m: unknown) => {
    if (!isObj(m) || typeof m.model !== "string" || !isObj(m.token_count)) return [];
    const i = count(m.token_count.input_tokens);
    const o = count(m.token_count.output_tokens);
    return i === undefined || o === undefined ? [] : [{ model: m.model, inputTokens: i, outputTokens: o }];
  });
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(byModel.length ? { byModel } : {}),
  };
}

/** The turn usage in a `session/prompt` result, or undefined when the agent reported none. */
export function turnUsageFrom(response: unknown): TurnUsage | undefined {
  if (!isObj(response)) return undefined;
  if (isObj(response.usage)) {
    const acp = fromAcp(response.usage);
    if (acp) return acp;
  }
  const meta = isObj(response._meta) ? response._meta : undefined;
  return meta && isObj(meta.quota) ? fromGeminiQuota(meta.quota) : undefined;
}
