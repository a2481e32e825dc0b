/**
 * Exec mode: agent CLIs (`codex exec`, `claude --print`, `gemini -p`, `opencode run`, any command) run as tracked
 * processes. No vscode here; the extension and the CLI both drive it.
 *
 * ## For the VS Code host (Pseudoterminal, quick pick)
 *
 * ```ts
 * // Registry on <home>/exec; every run started here is also recorded as a thread (mode "exec") in <home>:
 * const registry = openExecRegistry(home, { ttlMs, logger });
 * // (or new ExecRegistry({ execDir, recorder: new ExecThreadRecorder(new ThreadStore(home)) }) by hand)
 * // Quick pick: EXEC_PRESETS (id, displayName) plus "custom"; expandCommand(["codex", prompt]) gives the argv.
 * // Spread the expansion whole: it carries presetId, closeStdin and the transcript kind (found at exit).
 * const run = registry.start({ ...expandCommand(["codex", prompt]), cwd, env, pty: true, cols, rows });
 * // Pseudoterminal:
 * //   onDidWrite  ← run.onOutput(e => write(e.text))   (after replaying run.read(0).text for late openers;
 * //                                                       pass slice.next as the cursor to avoid duplicates)
 * //   handleInput → run.write(data)                     (raw keystrokes; on pipes, C-c signals the group)
 * //   setDimensions → run.resize(cols, rows)
 * //   onDidClose  ← run.onExit(info => close(info.exitCode ?? undefined))
 * //   close()     → void run.kill()                     (process group: SIGTERM, SIGKILL after 1.5 s)
 * // Runs of other processes (CLI `--background`): registry.list() shows them; registry.poll(id, cursor)
 * // streams their output from disk (poll on a timer); registry.kill(id) works, write/resize throw.
 * // Deactivate: await registry.shutdown(true); registry.dispose().
 * ```
 *
 * Output is bounded: the first 64 KiB and the last 1 MiB are kept (memory and disk); `poll`/`read` take a byte
 * cursor and report dropped middle output as `gap`. Finished runs expire after the home's exec TTL (`execTtlMs`,
 * default 60 min, set by the editor in `<home>/settings.json`); running ones never.
 * Each run has a state file `<execDir>/<id>.json` so `acp-threads ps|logs|kill` in another process see it; a run
 * whose process is gone with no exit recorded reads as `lost`.
 */
export { execTtlMs, openExecRegistry, type OpenExecOptions } from "./open-registry";
export { ExecRegistry, commandLine, newRunId, type ExecRegistryOptions, type LogRequest } from "./registry";
export { ExecRun } from "./exec-run";
export {
  EXEC_PRESETS,
  expandCommand,
  findPreset,
  type ExecPreset,
  type ExpandedCommand,
  type PresetOptions,
} from "./exec-presets";
export { CLAUDE_PERMISSION_MODES, type ClaudePermissionMode } from "./exec-presets";
export { HeadTailBuffer, readSlice } from "./output-buffer";
export { encodeKeys, keyBytes } from "./send-keys";
export { ExecThreadRecorder, type ExecThreadOptions, type ThreadSink, type ThreadSinkHandle } from "./exec-thread";
export { findTranscript, type TranscriptQuery } from "./transcript-finder";
export { signalExitCode } from "./proc";
export * from "./types";
