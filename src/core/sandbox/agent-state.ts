/**
 * The folders (and files) each agent writes its own state to, which a sandbox must leave writable: its
 * login, config, sessions and logs. Presets and registry agents are known by id (a registry id names its
 * agent: `codex-acp`, `claude-acp`, `gemini`, ...); a custom agent lists its own in `sandbox.writable`.
 * Launchers write too: `npx` its npm cache, `uvx` uv's cache.
 */
import { HOST_PLATFORM, type Platform } from "../platform/host";

type Folders = (home: string, env: NodeJS.ProcessEnv, p: Platform) => string[];

const xdg = (env: NodeJS.ProcessEnv, name: string, fallback: string) => env[name] || fallback;

const KNOWN: [RegExp, Folders][] = [
  [/codex/, (home, env, p) => [env.CODEX_HOME || p.path.join(home, ".codex")]],
  [
    /claude/,
    (home, env, p) => [env.CLAUDE_CONFIG_DIR || p.path.join(home, ".claude"), p.path.join(home, ".claude.json")],
  ],
  [/gemini/, (home, _env, p) => [p.path.join(home, ".gemini")]],
  [
    /opencode/,
    (home, env, p) => [
      p.path.join(xdg(env, "XDG_DATA_HOME", p.path.join(home, ".local/share")), "opencode"),
      p.path.join(xdg(env, "XDG_CONFIG_HOME", p.path.join(home, ".config")), "opencode"),
      p.path.join(xdg(env, "XDG_CACHE_HOME", p.path.join(home, ".cache")), "opencode"),
      p.path.join(xdg(env, "XDG_STATE_HOME", p.path.join(home, ".local/state")), "opencode"),
    ],
  ],
  [/^pi($|-)/, (home, env, p) => [env.PI_CODING_AGENT_DIR || p.path.join(home, ".pi")]],
];

/** Every agent may be started through `npx` / `uvx` (registry agents are): their caches. */
const launcherCaches: Folders = (home, env, p) => [
  env.npm_config_cache || p.path.join(home, ".npm"),
  p.path.join(xdg(env, "XDG_CACHE_HOME", p.path.join(home, ".cache")), "uv"),
];

export function agentStateFolders(
  agentId: string,
  home: string,
  env: NodeJS.ProcessEnv,
  p: Platform = HOST_PLATFORM,
): string[] {
  const id = agentId.toLowerCase();
  const own = KNOWN.filter(([re]) => re.test(id)).flatMap(([, folders]) => folders(home, env, p));
  return [...own, ...launcherCaches(home, env, p)];
}

/** Whether the agent's state entry is a file (created empty when missing) rather than a folder. */
export function isStateFile(path: string): boolean {
  return /\.json$/.test(path);
}
