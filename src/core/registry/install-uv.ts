/** `uvx` distributions: `uv tool install` with the tool and its bin folder inside the agent's install folder. */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { AcpThreadsError } from "../errors";
import { pythonSpecProblem } from "./package-spec";
import { findTool, runTool } from "./run-tool";
import type { InstallProgress, PackageDistribution } from "./types";

/** `name==1.2.3` / `name@1.2.3` / `name[extra]` → `name`. */
function pythonName(spec: string): string {
  return spec.split(/[=<>!~@[ ;]/)[0]!;
}

export async function uvInstall(
  dist: PackageDistribution,
  dir: string,
  opts: { signal?: AbortSignal; onProgress?: (p: InstallProgress) => void; env?: NodeJS.ProcessEnv },
): Promise<string> {
  const refused = pythonSpecProblem(dist.package);
  if (refused) throw new AcpThreadsError("usage", `not installed: ${refused}`);
  const env = opts.env ?? process.env;
  const uv = findTool("uv", env);
  if (!uv)
    throw new AcpThreadsError(
      "agent_not_found",
      `installing ${dist.package} needs uv on PATH: install it (https://docs.astral.sh/uv/, e.g. 'pipx install uv' or 'brew install uv') and try again`,
    );
  const binDir = join(dir, "bin");
  opts.onProgress?.({ phase: "uv", message: `uv tool install ${dist.package}` });
  await runTool(uv, ["tool", "install", "--force", dist.package], {
    cwd: dir,
    env: { ...env, UV_TOOL_DIR: join(dir, "tools"), UV_TOOL_BIN_DIR: binDir },
    signal: opts.signal,
    onLine: (line) => opts.onProgress?.({ phase: "uv", message: line }),
  });
  const wanted = dist.cmd ?? pythonName(dist.package);
  const found = readdirSync(binDir).find((f) => f === wanted || f.replace(/\.exe$/i, "") === wanted);
  if (!found || !existsSync(join(binDir, found)))
    throw new AcpThreadsError("not_found", `${dist.package} installed no command '${wanted}' in ${binDir}`);
  return relative(dir, join(binDir, found));
}
