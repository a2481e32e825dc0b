/**
 * What a finished (or running) `execute` tool call printed, read from wherever its agent put it:
 *   - a client terminal (`terminal/create`, claude-code-acp): the caller passes the terminal's text and exit;
 *   - Zed's `_meta.terminal_output` stream (claude-agent-acp, codex-acp 2.6, pi-acp): `ToolCallState.terminalOutput`,
 *     and its `_meta.terminal_exit`: `ToolCallState.terminalExit`;
 *   - text `content` blocks (opencode);
 *   - `rawOutput`: codex-acp's exec record `{formatted_output, exit_code, duration}`, opencode's
 *     `{output, metadata: {exit}}`, claude-code-acp's "Exited with code N.Final output:" text, or a plain string.
 * Agents that send none of these (gemini) get `output: undefined`. Pure; shared by the thread panel and tests.
 */
import type { ToolCallState } from "./events";
import { isObj, num, str, type Obj } from "../util/guards";

export interface TerminalSnapshot {
  text: string;
  exitCode?: number | null;
  signal?: string | null;
}

export interface CommandOutput {
  /** The command line as the agent gave it, when it did. */
  command?: string;
  output?: string;
  exitCode?: number | null;
  signal?: string | null;
  durationMs?: number;
  source?: "terminal" | "meta" | "content" | "rawOutput";
}

/** `rawInput.command` as one line: codex's `["/bin/bash", "-lc", "echo hi"]` → `echo hi`. */
export function commandLine(rawInput: unknown): string | undefined {
  if (!isObj(rawInput)) return undefined;
  const c = rawInput.command ?? rawInput.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) {
    const argv = c as string[];
    const shellC = argv.findIndex((a) => /^-\w*c$/.test(a));
    if (shellC > 0 && shellC === argv.length - 2 && /(^|\/)(ba|z|da)?sh$/.test(argv[0])) return argv[shellC + 1];
    return argv.map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a)).join(" ");
  }
  return undefined;
}

const EXITED = /^Exited with code (-?\d+)\.?\s*(?:Final output:)?\s*/;

function textOfBlocks(v: unknown[]): string | undefined {
  const texts = v.flatMap((b) => (isObj(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : []));
  return texts.length ? texts.join("\n") : undefined;
}

function fromRaw(raw: unknown): CommandOutput {
  if (typeof raw === "string") return parseExitedText(raw);
  if (Array.isArray(raw)) {
    const t = textOfBlocks(raw);
    return t === undefined ? {} : parseExitedText(t);
  }
  if (!isObj(raw)) return {};
  const meta = isObj(raw.metadata) ? raw.metadata : {};
  // the first field with text: codex's exec record may leave formatted_output and aggregated_output empty while
  // stdout has the text (an empty one only means "no output" when every field is empty)
  const output = firstText([
    str(raw.formatted_output),
    str(raw.aggregated_output),
    str(raw.output),
    str(meta.output),
    typeof raw.stdout === "string" || typeof raw.stderr === "string"
      ? [str(raw.stdout), str(raw.stderr)].filter(Boolean).join("")
      : undefined,
    str(raw.result),
    Array.isArray(raw.content) ? textOfBlocks(raw.content) : str(raw.content),
  ]);
  const exitCode = num(raw.exit_code) ?? num(raw.exitCode) ?? num(raw.exit) ?? num(meta.exit) ?? num(meta.exitCode);
  let durationMs: number | undefined;
  const d = raw.duration;
  if (isObj(d) && (num(d.secs) !== undefined || num(d.nanos) !== undefined))
    durationMs = (num(d.secs) ?? 0) * 1000 + (num(d.nanos) ?? 0) / 1e6;
  else durationMs = num(raw.duration_ms) ?? num(raw.durationMs) ?? num(raw.wall_time_ms);
  if (output !== undefined && exitCode === undefined)
    return { ...parseExitedText(output), durationMs, signal: str(raw.signal) };
  return { output, exitCode, durationMs, signal: str(raw.signal) };
}

function firstText(candidates: (string | undefined)[]): string | undefined {
  return candidates.find((c) => c) ?? candidates.find((c) => c !== undefined);
}

function parseExitedText(text: string): CommandOutput {
  const m = EXITED.exec(text);
  return m ? { output: text.slice(m[0].length), exitCode: Number(m[1]) } : { output: text };
}

const defined = <T extends Obj>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function commandOutput(call: ToolCallState, terminal?: TerminalSnapshot): CommandOutput {
  const raw = fromRaw(call.rawOutput);
  const contentText = textOfBlocks(call.content.flatMap((c) => (c.type === "content" ? [c.content as unknown] : [])));
  let output: string | undefined;
  let source: CommandOutput["source"];
  if (terminal?.text) [output, source] = [terminal.text, "terminal"];
  else if (call.terminalOutput) [output, source] = [call.terminalOutput, "meta"];
  else if (contentText !== undefined) [output, source] = [contentText, "content"];
  else if (raw.output !== undefined) [output, source] = [raw.output, "rawOutput"];
  const measured =
    call.startedAt !== undefined && call.endedAt !== undefined ? Math.max(0, call.endedAt - call.startedAt) : undefined;
  return defined({
    command: commandLine(call.rawInput),
    output,
    source,
    exitCode: terminal?.exitCode ?? raw.exitCode ?? call.terminalExit?.exitCode ?? undefined,
    signal: terminal?.signal ?? raw.signal ?? call.terminalExit?.signal ?? undefined,
    durationMs: raw.durationMs ?? measured,
  });
}
