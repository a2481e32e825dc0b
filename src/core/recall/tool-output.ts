/**
 * Tool output as a person reads it. Codex stores a shell result as a JSON string (`{"output": "…", "metadata":
 * {"exit_code": 0, "duration_seconds": 0.1}}`), older rollouts as an object (`{content, metadata}`), and MCP tools
 * as arrays of content items. The index and the evidence windows hold the text inside, with the exit code when
 * it says the command failed; JSON of any other shape is kept as it is.
 */
import { isObj } from "../util/guards";

/** Bigger JSON is not worth parsing twice: it is capped for the index anyway. */
const MAX_PARSE = 1_000_000;

function itemsText(items: unknown[]): string | undefined {
  const parts: string[] = [];
  for (const c of items) {
    if (typeof c === "string") parts.push(c);
    else if (isObj(c) && typeof c.text === "string") parts.push(c.text);
    else if (!isObj(c) || typeof c.type !== "string") return undefined; // not content items
  }
  return parts.join("\n");
}

function exitCode(o: Record<string, unknown>): number | undefined {
  const meta = isObj(o.metadata) ? o.metadata : o;
  const code = meta.exit_code ?? meta.exitCode;
  return typeof code === "number" ? code : undefined;
}

/** Keys of the envelopes we unwrap; an object with any other key is data, shown as JSON. */
const ENVELOPE_KEYS = new Set([
  "output",
  "content",
  "text",
  "metadata",
  "exit_code",
  "exitCode",
  "duration_seconds",
  "wall_time_seconds",
  "session_id",
  "chunk_id",
  "original_token_count",
  "stdout",
  "stderr",
  "interrupted",
  "isImage",
  "success",
]);

/** The text of an envelope object, or undefined when it is not a shape we know. */
function envelopeText(o: Record<string, unknown>): string | undefined {
  if (!Object.keys(o).every((k) => ENVELOPE_KEYS.has(k))) return undefined;
  let text: string | undefined;
  const body = o.output ?? o.content ?? o.text;
  if (typeof body === "string") text = body;
  else if (Array.isArray(body)) text = itemsText(body);
  else if (typeof o.stdout === "string" || typeof o.stderr === "string")
    text = [o.stdout, o.stderr].filter((s): s is string => typeof s === "string" && s !== "").join("\n");
  if (text === undefined) return undefined;
  const code = exitCode(o);
  return code !== undefined && code !== 0 ? `${text.replace(/\n+$/, "")}\n[exit code ${code}]` : text;
}

/** Readable text of a tool output given as a string, an envelope object or an array of content items. */
export function readableToolOutput(raw: unknown): string {
  if (Array.isArray(raw)) return itemsText(raw) ?? JSON.stringify(raw);
  if (isObj(raw)) return envelopeText(raw) ?? JSON.stringify(raw);
  if (typeof raw !== "string") return "";
  const t = raw.trim();
  if (t.length > MAX_PARSE || !((t[0] === "{" && t.endsWith("}")) || (t[0] === "[" && t.endsWith("]")))) return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return raw;
  }
  const text = Array.isArray(parsed) ? itemsText(parsed) : isObj(parsed) ? envelopeText(parsed) : undefined;
  return text ?? raw;
}
