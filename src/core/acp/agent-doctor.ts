/** `doctor`: which presets (and custom agents) are installed, where, and which version. */
import { execFile } from "node:child_process";
import { errorMessage } from "../errors";
import { AGENT_PRESETS, resolveCommand, type CustomAgentConfig } from "./agent-registry";
import type { DoctorEntry } from "./runtime";

export const VERSION_TIMEOUT_MS = 5_000;

export interface DoctorOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  custom?: Record<string, CustomAgentConfig>;
  timeoutMs?: number;
}

/** First line that looks like a version, else the first non-empty line. */
export function parseVersion(output: string): string | null {
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const match = lines.join("\n").match(/\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/);
  return match?.[0] ?? lines[0] ?? null;
}

function runVersion(path: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, args, { env, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 256 * 1024 }, (err, stdout, stderr) => {
      if (err && !stdout) return resolve(null);
      resolve(parseVersion(`${stdout}\n${stderr}`));
    });
  });
}

export async function doctor(opts: DoctorOptions): Promise<DoctorEntry[]> {
  const env = opts.env ?? process.env;
  const timeout = opts.timeoutMs ?? VERSION_TIMEOUT_MS;
  const entries = [
    ...AGENT_PRESETS.map((p) => ({ id: p.id, displayName: p.displayName, command: p.command, versionArgs: p.versionArgs, install: p.install })),
    ...Object.entries(opts.custom ?? {}).map(([id, c]) => ({ id, displayName: id, command: c.command, versionArgs: ["--version"], install: null })),
  ];
  return await Promise.all(
    entries.map(async (e): Promise<DoctorEntry> => {
      const resolvedPath = resolveCommand(e.command, opts.cwd, env);
      if (!resolvedPath) {
        return {
          id: e.id,
          displayName: e.displayName,
          command: e.command,
          resolvedPath: null,
          available: false,
          version: null,
          problem: `'${e.command}' not found in node_modules/.bin or PATH${e.install ? `; install: ${e.install}` : ""}`,
        };
      }
      let version: string | null = null;
      let problem: string | null = null;
      try {
        version = e.versionArgs ? await runVersion(resolvedPath, e.versionArgs, env, timeout) : null;
      } catch (err) {
        problem = errorMessage(err);
      }
      return { id: e.id, displayName: e.displayName, command: e.command, resolvedPath, available: true, version, problem };
    }),
  );
}
