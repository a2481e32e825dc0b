/**
 * Agent presets, custom agents (Zed `agent_servers` shape) and command resolution.
 *
 * `resolveAgent` accepts a preset id, a custom agent name, an agent installed from the registry by its id, or a
 * command line ("node ./agent.js --flag", "/abs/agent"); the command is resolved to an absolute path: an installed
 * agent's as its install recorded, a path as given, a name on PATH only (never a `node_modules/.bin` above the
 * workspace: see platform/executables), so spawning never depends on a shell.
 */
import { createHash } from "node:crypto";
import { AcpThreadsError } from "../errors";
import { commandName } from "./command-name";
import type { AgentSpec } from "../model/agent";
import { findExecutableAsync } from "../platform/executables";
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
  /** Agents installed from the ACP Registry (`installedSpecForAsync` in core/registry, bound to the data home). */
  installed?: (id: string) => Promise<AgentSpec | undefined>;
  /** A command not found gives its spec (the command as configured) with `found: false`, not `agent_not_found`. */
  allowMissing?: boolean;
}

/** What `resolveAgent` gives: `found` when the command is the program's absolute path. */
export interface ResolvedAgent {
  spec: AgentSpec;
  found: boolean;
}

/**
 * Absolute path of `command`, or null: paths as given (relative to cwd), names on PATH (PATHEXT on Windows). The file
 * checks run on the thread pool: `resolveAgent`, doctor, the window.
 */
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
 * preset how to install it. An installed registry agent (`installed`, looked up by the caller) comes `ready` (its
 * command is already absolute, inside its install folder). An unknown name is a usage error; so is an empty command
 * line.
 */
interface AgentChoice {
  spec: AgentSpec;
  install?: string;
  ready?: boolean;
}

function chooseAgent(
  idOrCommandLine: string,
  customs: Record<string, CustomAgentConfig> | undefined,
  installed: AgentSpec | undefined,
): AgentChoice {
  const custom = customs?.[idOrCommandLine];
  if (custom) {
    const { command, args = [], env } = custom;
    return { spec: { id: idOrCommandLine, displayName: idOrCommandLine, command, args, env } };
  }
  if (installed) return { spec: installed, ready: true };
  const preset = findPreset(idOrCommandLine);
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
  const known = [...AGENT_PRESETS.map((p) => p.id), ...Object.keys(customs ?? {})].join(", ");
  throw new AcpThreadsError(
    "usage",
    `unknown agent '${idOrCommandLine}' (known: ${known}); pass a command line to run any ACP agent`,
  );
}

/** The error for a chosen agent whose command is not found (with the preset's install hint). */
function agentNotFound({ spec, install }: AgentChoice): AcpThreadsError {
  const hint = install ? ` Install it with: ${install}` : "";
  return new AcpThreadsError(
    "agent_not_found",
    `${spec.displayName}: command '${spec.command}' not found on PATH.${hint}`,
    {
      command: spec.command,
    },
  );
}

/**
 * The spec for a custom agent name, an installed registry agent's id, a preset id, or a command line (in that order:
 * a custom agent wins over an installed one, an installed one over a preset; a command line is never looked up among
 * the installed agents), its command made absolute. A command not found is `agent_not_found` (with a preset's install
 * hint), or with `allowMissing` the spec as configured and `found: false`. Only files are looked at; the lookups run
 * off the caller's thread (but `commandName`'s read of a generic entry script's package.json).
 */
export async function resolveAgent(idOrCommandLine: string, opts: ResolveOptions): Promise<ResolvedAgent> {
  const lookUp = !opts.custom?.[idOrCommandLine] && !looksLikeCommandLine(idOrCommandLine);
  const installed = lookUp ? await opts.installed?.(idOrCommandLine) : undefined;
  const choice = chooseAgent(idOrCommandLine, opts.custom, installed);
  if (choice.ready) return { spec: choice.spec, found: true };
  const program = await resolveCommandAsync(choice.spec.command, opts.cwd, opts.env ?? process.env);
  if (program) return { spec: { ...choice.spec, command: program }, found: true };
  if (opts.allowMissing) return { spec: choice.spec, found: false };
  throw agentNotFound(choice);
}
