/**
 * Exec presets: agent CLIs in their non-interactive mode. `expandCommand(["codex", "fix the bug"])` becomes
 * `codex exec --sandbox workspace-write "fix the bug"`. A command line that already names the mode (`codex exec ...`,
 * `claude -p ...`) is left alone, as is anything that is not a preset (a custom command).
 */
import { HOST_PLATFORM, type Platform } from "../platform/host";
import { shellLine } from "../platform/shell";
import type { ExecStartOptions, TranscriptKind } from "./types";

export const CLAUDE_PERMISSION_MODES = ["acceptEdits", "bypassPermissions", "default", "plan", "dontAsk"] as const;
export type ClaudePermissionMode = (typeof CLAUDE_PERMISSION_MODES)[number];

export interface ExecPreset {
  id: string;
  displayName: string;
  command: string;
  /** Arguments put before the user's words. */
  modeArgs: (options: PresetOptions) => string[];
  /** Words that show the user already chose the mode (then nothing is inserted). */
  modeMarkers: readonly string[];
  pty: boolean;
  /** These CLIs read stdin when it is not a terminal and would wait for EOF. */
  closeStdin: boolean;
  transcript?: TranscriptKind;
}

export interface PresetOptions {
  /** `claude --permission-mode`; default acceptEdits (edits pass, shell commands still need an allow rule). */
  claudePermissionMode?: ClaudePermissionMode;
}

export const EXEC_PRESETS: readonly ExecPreset[] = [
  {
    id: "codex",
    displayName: "Codex (codex exec)",
    command: "codex",
    // `--full-auto` is gone in codex 0.169 ("unexpected argument"); its sandbox half is what exec needs.
    modeArgs: () => ["exec", "--sandbox", "workspace-write"],
    modeMarkers: ["exec", "e"],
    pty: false,
    closeStdin: true,
    transcript: "codex",
  },
  {
    id: "claude",
    displayName: "Claude Code (claude --print)",
    command: "claude",
    modeArgs: (o) => ["--print", "--permission-mode", o.claudePermissionMode ?? "acceptEdits"],
    modeMarkers: ["--print", "-p"],
    pty: false,
    closeStdin: true,
    transcript: "claude",
  },
  {
    id: "gemini",
    displayName: "Gemini CLI (gemini -p)",
    command: "gemini",
    modeArgs: () => ["-p"],
    modeMarkers: ["-p", "--prompt"],
    pty: false,
    closeStdin: true,
    transcript: "gemini",
  },
  {
    id: "opencode",
    displayName: "OpenCode (opencode run)",
    command: "opencode",
    modeArgs: () => ["run"],
    modeMarkers: ["run"],
    pty: false,
    closeStdin: true,
  },
];

export function findPreset(id: string): ExecPreset | undefined {
  return EXEC_PRESETS.find((p) => p.id === id);
}

/** The start options for a command line (preset or custom) before cwd/env/timeout are added. */
export type ExpandedCommand = Pick<
  ExecStartOptions,
  "command" | "args" | "pty" | "closeStdin" | "presetId" | "transcript"
>;

/**
 * Expands a preset id in the first word; a single word containing spaces or shell syntax runs through the
 * platform's shell (`/bin/sh -c`, cmd.exe on Windows), so `exec -- "make && make test"` works; anything else
 * runs as given.
 */
export function expandCommand(
  argv: readonly string[],
  options: PresetOptions = {},
  platform: Platform = HOST_PLATFORM,
): ExpandedCommand {
  if (argv.length === 0) throw new Error("no command given");
  const [first, ...rest] = argv as [string, ...string[]];
  const preset = findPreset(first);
  if (preset) {
    // Subcommands count only in first place (`codex exec`); flags anywhere (`claude --model x -p`).
    const chosen = rest.some((w, i) => preset.modeMarkers.includes(w) && (i === 0 || w.startsWith("-")));
    const args = chosen ? rest : [...preset.modeArgs(options), ...rest];
    return {
      command: preset.command,
      args,
      pty: preset.pty,
      closeStdin: preset.closeStdin,
      presetId: preset.id,
      transcript: preset.transcript,
    };
  }
  if (rest.length === 0 && /[\s;&|<>$`*?(){}]/.test(first)) {
    const shell = shellLine(first, platform);
    return { command: shell.file, args: shell.args };
  }
  return { command: first, args: rest };
}
