/**
 * The internal switch of #35 item 7, step 3: with `acpThreads.host.runSessions` = `window`, the window's new threads
 * and the next turns of its stored threads run in the window's own in-process host (window-host.ts, through
 * host-run.ts as `host` mode's do through the socket host) instead of a window session (`LiveSession`), when the
 * extension host's environment says `ACP_THREADS_WINDOW_ENGINE=hosted`. Unset (the default): window sessions, as
 * before. Read on each start, so the host tests can turn it on and off.
 */
export const WINDOW_ENGINE_ENV = "ACP_THREADS_WINDOW_ENGINE";

/** Whether `window` mode runs through the window's own host (the environment says `hosted`). */
export const windowEngineHosted = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env[WINDOW_ENGINE_ENV] === "hosted";

/** Whether this window's sessions start in its own host: `window` mode, the switch on, and the window has one. */
export const runsInOwnHost = (hub: {
  config: { hostRunSessions: "window" | "host" };
  hosted: { own?: unknown };
}): boolean => hub.config.hostRunSessions === "window" && !!hub.hosted.own && windowEngineHosted();
