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

/** Builds the spec for a preset id, a custom agent name, or a command line; the command becomes absolute. */
export function resolveAgent(idOrCommandLine: string, opts: ResolveOptions): AgentSpec {
  const env = opts.env ?? process.env;
  const custom = opts.custom?.[idOrCommandLine];
  const preset = findPreset(idOrCommandLine);
  const installed = custom || looksLikeCommandLine(idOrCommandLine) ? undefined : opts.installed?.(idOrCommandLine);
  let spec: AgentSpec;
  let install: string | undefined;
  if (custom) {
    spec = {
      id: idOrCommandLine,
      displayName: idOrCommandLine,
      command: custom.command,
      args: custom.args ?? [],
      env: custom.env,
    };
  } else if (installed) {
    return installed; // already absolute, inside its install folder
  } else if (preset && !looksLikeCommandLine(idOrCommandLine)) {
    spec = { id: preset.id, displayName: preset.displayName, command: preset.command, args: [...preset.args] };
    install = preset.install;
  } else if (looksLikeCommandLine(idOrCommandLine)) {
    const [command, ...args] = splitCommandLine(idOrCommandLine);
    if (!command) throw new AcpThreadsError("usage", "empty agent command line");
    const name = commandName(command);
    spec = { id: commandLineAgentId(name, [command, ...args]), displayName: name, command, args };
  } else {
    const known = [...AGENT_PRESETS.map((p) => p.id), ...Object.keys(opts.custom ?? {})].join(", ");
    throw new AcpThreadsError(
      "usage",
      `unknown agent '${idOrCommandLine}' (known: ${known}); pass a command line to run any ACP agent`,
    );
  }
  const resolved = resolveCommand(spec.command, opts.cwd, env);
  if (!resolved) {
    const hint = install ? ` Install it with: ${install}` : "";
    throw new AcpThreadsError(
      "agent_not_found",
      `${spec.displayName}: command '${spec.command}' not found on PATH.${hint}`,
      {
        command: spec.command,
      },
    );
  }
  return { ...spec, command: resolved };
}
