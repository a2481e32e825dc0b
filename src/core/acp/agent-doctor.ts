/** `doctor`: which presets (and custom agents) are installed, where, and which version. */
import { spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorMessage } from "../errors";
import { launchProgram } from "../platform/shell";
import { AGENT_PRESETS, resolveCommand, type CustomAgentConfig } from "./agent-registry";
import type { DoctorEntry } from "./runtime";

export const VERSION_TIMEOUT_MS = 5_000;

export interface DoctorOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  custom?: Record<string, CustomAgentConfig>;
  timeoutMs?: number;
}

/**
 * The first version number (`1.2`, `1.2.3`, `1.2.3-beta.1`) in the output, else null: an agent that does not
 * know `--version` prints an error or its usage, and that is no version.
 */
export function parseVersion(output: string): string | null {
  return output.match(/\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/)?.[0] ?? null;
}

/**
 * The version of the npm package a command comes from (node_modules/.bin links into it), for adapters that
 * have no `--version` (codex-acp, claude-agent-acp).
 */
export function packageVersionOf(commandPath: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(commandPath));
  } catch {
    return null;
  }
  for (let i = 0; i < 4 && dirname(dir) !== dir; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
      return typeof pkg.version === "string" ? pkg.version : null;
    } catch {
      // no package.json here: keep walking up
    }
  }
  return null;
}

/** Runs `path args` with stdin closed (ACP servers that ignore the flag then exit on EOF) and a hard timeout. */
function runVersion(path: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let out = "";
    // Windows: an npm `.cmd` shim cannot be spawned directly (platform/shell.ts).
    const launch = launchProgram(path, args, { env });
    const child = spawn(launch.file, launch.args, {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      windowsHide: true,
      windowsVerbatimArguments: launch.verbatim,
    });
    const collect = (d: Buffer) => {
      if (out.length < 64 * 1024) out += d.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", () => resolve(null));
    // A failing `--version` (unknown flag) says nothing about the version, whatever it printed.
    child.once("close", (code) => resolve(code === 0 ? parseVersion(out) : null));
  });
}

export async function doctor(opts: DoctorOptions): Promise<DoctorEntry[]> {
  const env = opts.env ?? process.env;
  const timeout = opts.timeoutMs ?? VERSION_TIMEOUT_MS;
  const entries = [
    ...AGENT_PRESETS.map((p) => ({
      id: p.id,
      displayName: p.displayName,
      command: p.command,
      versionArgs: p.versionArgs,
      install: p.install,
    })),
    ...Object.entries(opts.custom ?? {}).map(([id, c]) => ({
      id,
      displayName: id,
      command: c.command,
      // `node agent.js --version` asks the agent, not node
      versionArgs: [...(c.args ?? []), "--version"],
      install: null,
    })),
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
        version =
          (e.versionArgs ? await runVersion(resolvedPath, e.versionArgs, env, timeout) : null) ??
          packageVersionOf(resolvedPath);
      } catch (err) {
        problem = errorMessage(err);
      }
      return {
        id: e.id,
        displayName: e.displayName,
        command: e.command,
        resolvedPath,
        available: true,
        version,
        problem,
      };
    }),
  );
}
