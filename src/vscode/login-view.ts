/**
 * The agent's login state as the editor shows it (thread panel header, sessions tree tooltip): what a running
 * agent last reported (`_auth/status_update`, kept on the live session only, never written to the thread) and
 * the action that fits it: "Log out" when logged in and the agent offers `logout`, "Log in…" when logged out
 * and it advertises an auth method.
 */
import { authStatusText, type AuthStatus } from "../core/acp/auth-status";
import type { HostSessionInfo } from "../core/host/protocol";
import type { HostMessage } from "../webview/thread/protocol";
import type { LiveSession } from "./live-session";

export function loginText(live: Pick<LiveSession, "authStatus">): string | undefined {
  return live.authStatus && authStatusText(live.authStatus);
}

/** A window session, or a hosted run's state as the host pushed it (host/hosted-controls.ts). */
export interface LoginSource {
  authStatus?: AuthStatus | undefined;
  authActions: { login: boolean; logout: boolean };
}

export function loginView(live: LoginSource): Extract<HostMessage, { type: "login" }> {
  const status = live.authStatus;
  if (!status) return { type: "login", text: "" };
  const can = live.authActions;
  const action = status.kind === "none" ? (can.login ? "login" : undefined) : can.logout ? "logout" : undefined;
  return { type: "login", text: authStatusText(status), ...(action ? { action } : {}) };
}

/**
 * The login state the newest running session of `agentId` reported (the agent picker's detail): a window session
 * of it, else a run of it in the thread host (its row in the host's last status, which carries what the agent
 * reported, whether or not a view here follows it).
 */
export function agentLogin(
  sessions: readonly Pick<LiveSession, "agent" | "isOpen" | "authStatus">[],
  hosted: readonly HostSessionInfo[],
  agentId: string,
): string | undefined {
  const s = sessions.filter((x) => x.agent.id === agentId && x.isOpen && x.authStatus).at(-1);
  if (s) return loginText(s);
  const run = hosted.filter((x) => x.agentId === agentId && x.state !== "ended" && x.authStatus).at(-1);
  return run?.authStatus && authStatusText(run.authStatus);
}
