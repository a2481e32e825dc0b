/**
 * Agent presets, custom agents (Zed `agent_servers` shape) and command resolution.
 *
 * `resolveAgent` accepts a preset id, a custom agent name, or a command line ("node ./agent.js --flag",
 * "/abs/agent"); the command is resolved to an absolute path: an agent installed from the registry by its id, a
 * path as given, a name on PATH only (never a `node_modules/.bin` above the workspace: see platform/executables),
 * so spawning never depends on a shell.
 */
import { createHash } from "node:crypto";
import { AcpThreadsError } from "../errors";
import { commandName } from "./command-name";
import type { AgentSpec } from "../model/agent";
import { findExecutable, findExecutableAsync } from "../platform/executables";
import { HOST_PLATFORM, isWindows, type Platform } from "../platform/host";
import { AGENT_PRESETS, findPreset } from "./agent-presets";
import { looksLikeCommandLine } from "./command-line";
export { AGENT_PRESETS, findPreset, type AgentPreset } from "./agent-presets";
export { joinCommandLine, looksLikeCommandLine } from "./command-line";

/** A custom agent as in Zed's `agent_servers`: `{ "My agent": { command, args, env } }`. */
export interface CustomAgentConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface ResolveOptions {
  custom?: Record<string, CustomAgentConfig>;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Agents installed from the ACP Registry (`installedSpecFor` in core/registry, bound to the data home). */
  installed?: (id: string) => AgentSpec | undefined;
}

/** Absolute path of `command`, or null: paths as given (relative to cwd), names on PATH (PATHEXT on Windows). */
export function resolveCommand(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return findExecutable(command, { cwd, env });
}

/** `resolveCommand` off the thread (the file checks run on the thread pool): for the editor's extension host. */
export function resolveCommandAsync(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | null> {
  return findExecutableAsync(command, { cwd, env });
}

/**
 * Splits a command line into words, honouring single/double quotes and backslash escapes (no expansion). On
 * Windows a backslash is a path separator, so it escapes only a double quote (`C:\Tools\agent.exe` stays whole).
 */
export function splitCommandLine(line: string, platform: Platform = HOST_PLATFORM): string[] {
  const escapes = (next: string | undefined) => next !== undefined && (!isWindows(platform) || next === '"');
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && escapes(line[i + 1])) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && escapes(line[i + 1])) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new AcpThreadsError("usage", `unterminated quote in agent command line: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/**
 * The id of an agent given as a command line: its name and a short hash of the whole command as written
 * (`node:3f2a1c`), so two `node …` agents never share permission rules, threads' agent or usage. The same line
 * keeps its id; presets, custom and installed agents keep theirs. Threads recorded before keep the bare name.
 */
export function commandLineAgentId(name: string, words: readonly string[]): string {
  return `${name}:${createHash("sha256").update(words.join("\0")).digest("hex").slice(0, 6)}`;
}

/**
 * What `idOrCommandLine` names before its command is looked up: the spec (its command as configured), and for a
 * preset how to install it. An installed registry agent comes `ready` (its command is already absolute, inside its
 * install folder). An unknown name is a usage error; so is an empty command line.
 */
export interface AgentChoice {
  spec: AgentSpec;
  install?: string;
  ready?: boolean;
}

export function chooseAgent(idOrCommandLine: string, opts: Omit<ResolveOptions, "cwd" | "env">): AgentChoice {
  const custom = opts.custom?.[idOrCommandLine];
  const preset = findPreset(idOrCommandLine);
  const installed = custom || looksLikeCommandLine(idOrCommandLine) ? undefined : opts.installed?.(idOrCommandLine);
  if (custom) {
    const { command, args = [], env } = custom;
    return { spec: { id: idOrCommandLine, displayName: idOrCommandLine, command, args, env } };
  }
  if (installed) return { spec: installed, ready: true };
  if (preset && !looksLikeCommandLine(idOrCommandLine)) {
    const spec = { id: preset.id, displayName: preset.displayName, command: preset.command, args: [...preset.args] };
    return { spec, install: preset.install };
  }
  if (looksLikeCommandLine(idOrCommandLine)) {
    const [command, ...args] = splitCommandLine(idOrCommandLine);
    if (!command) throw new AcpThreadsError("usage", "empty agent command line");
    const name = commandName(command);
    return { spec: { id: commandLineAgentId(name, [command, ...args]), displayName: name, command, args } };
  }
  const known = [...AGENT_PRESETS.map((p) => p.id), ...Object.keys(opts.custom ?? {})].join(", ");
  throw new AcpThreadsError(
    "usage",
    `unknown agent '${idOrCommandLine}' (known: ${known}); pass a command line to run any ACP agent`,
  );
}

/** The error for a chosen agent whose command is not found (with the preset's install hint). */
export function agentNotFound({ spec, install }: AgentChoice): AcpThreadsError {
  const hint = install ? ` Install it with: ${install}` : "";
  return new AcpThreadsError(
    "agent_not_found",
    `${spec.displayName}: command '${spec.command}' not found on PATH.${hint}`,
    {
      command: spec.command,
    },
  );
}

/** Builds the spec for a preset id, a custom agent name, or a command line; the command becomes absolute. */
export function resolveAgent(idOrCommandLine: string, opts: ResolveOptions): AgentSpec {
  const choice = chooseAgent(idOrCommandLine, opts);
  if (choice.ready) return choice.spec;
  const resolved = resolveCommand(choice.spec.command, opts.cwd, opts.env ?? process.env);
  if (!resolved) throw agentNotFound(choice);
  return { ...choice.spec, command: resolved };
}
