/**
 * The session controls of a thread the thread host runs (#35): the header's mode, model and config pickers and its
 * login state, drawn from the session state the host pushes (core/host/session-state.ts) by the same builders as a
 * window session's (pickers-view.ts, login-view.ts), cleared when the run ends; a change made in them goes to the
 * host, which checks it and applies it to the live run. The prompt box's part (slash commands, capabilities) is
 * hosted-composer.ts's.
 */
import type * as vscode from "vscode";
import type { HostSessionState } from "../../core/host/session-state";
import type { HostMessage, WebviewMessage } from "../../webview/thread/protocol";
import { loginView } from "../login-view";
import { configOptionValue, pickersView } from "../pickers-view";
import type { HostedThreadView } from "./hosted-thread-view";

/** A picker source from the host's state: its modes and options are current already (no events to fold). */
const sourceOf = (state: HostSessionState) => ({ info: state, events: [] });

/** Posts the pickers and the login state now and on every change of the run's session state. */
export function followHostedControls(post: (m: HostMessage) => void, h: HostedThreadView): vscode.Disposable[] {
  const draw = () => {
    const state = h.sessionState;
    post({ type: "pickers", pickers: state ? pickersView(sourceOf(state)) : { modes: null, configOptions: [] } });
    post(state ? loginView(state) : { type: "login", text: "" });
  };
  draw();
  return [h.onSessionState(draw), h.onStatus((s) => s === "closed" && draw())];
}

/** A picker or login message of the panel, sent to the host; false: not one of them. */
export async function routeHostedControls(h: HostedThreadView, m: WebviewMessage): Promise<boolean> {
  const state = h.sessionState;
  if (m.type === "setMode") await h.setMode(m.modeId);
  else if (m.type === "setConfig")
    await h.setConfig(m.configId, state ? configOptionValue(sourceOf(state), m.configId, m.value) : m.value);
  else if (m.type === "login") await h.auth(m.action);
  else return false;
  return true;
}
