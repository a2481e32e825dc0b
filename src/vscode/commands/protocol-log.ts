/**
 * "Show protocol log": the protocol traffic of a session, read from the thread's traffic file (the data home's
 * `traffic/<threadId>.ndjson`, written off the host's thread and already redacted) as a read-only document. The
 * Output channel no longer carries the traffic unless its level is Trace (#24); with no recorded traffic (no
 * session, `acpThreads.recordTraffic` off) the command shows the channel and says how to turn Trace on.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import { rotatedPath } from "../../core/bundle/traffic-path";
import { pathExists } from "../../core/util/path-exists";
import { background } from "../../core/util/unexpected";
import type { Hub } from "../hub";
import type { SessionNode } from "../sessions-tree";

export const TRAFFIC_SCHEME = "acp-threads-traffic";

const changed = new vscode.EventEmitter<vscode.Uri>();
let provider: vscode.Disposable | undefined;

/** The document of `file` (the rotated part first): what is on disk when it is opened or shown again. */
function trafficUri(file: string): vscode.Uri {
  provider ??= vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(TRAFFIC_SCHEME, {
      onDidChange: changed.event,
      // read off the extension host's thread: a long session's traffic is megabytes
      provideTextDocumentContent: async (uri) =>
        (await Promise.all([rotatedPath(uri.path), uri.path].map(textOrNone))).join(""),
    }),
    changed,
  );
  return vscode.Uri.from({ scheme: TRAFFIC_SCHEME, path: file });
}

/** The thread whose traffic to show: the tree item's or the argument's, else the focused panel's, else picked. */
async function pickThread(hub: Hub, node?: SessionNode | string): Promise<string | undefined> {
  if (typeof node === "string") return node;
  if (node?.type === "live" || node?.type === "worktree" || node?.type === "hosted") return node.threadId;
  if (node?.type === "past") return node.thread.threadId;
  const live = hub.live.all();
  const focused = hub.panels.lastActive();
  // a thread the thread host runs records its traffic in the same place (its run's recordTraffic)
  if (focused && (live.some((s) => s.threadId === focused) || hub.hosted.holds(focused))) return focused;
  if (live.length <= 1) return live[0]?.threadId;
  const picked = await vscode.window.showQuickPick(
    live.map((s) => ({ label: s.title, description: `${s.agent.displayName} · ${s.status}`, threadId: s.threadId })),
    { title: "Show protocol log", placeHolder: "Which session's protocol traffic?" },
  );
  return picked?.threadId;
}

export async function showProtocolLog(hub: Hub, node?: SessionNode | string): Promise<vscode.TextEditor | undefined> {
  const threadId = await pickThread(hub, node);
  if (threadId) await hub.live.get(threadId)?.thread?.flushTraffic();
  const file = threadId && join(hub.layout.trafficDir, `${threadId}.ndjson`);
  if (!file || !((await pathExists(file)) || (await pathExists(rotatedPath(file))))) {
    hub.log.show();
    background(
      vscode.window.showInformationMessage(
        threadId
          ? "No protocol traffic is recorded for this thread (acpThreads.recordTraffic). The ACP Threads channel shows the traffic when its log level is Trace."
          : "No agent session is running in this window. The ACP Threads channel shows the protocol traffic when its log level is Trace.",
      ),
      "showing a message",
    );
    return undefined;
  }
  const uri = trafficUri(file);
  changed.fire(uri); // shown again: read the file again
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc, { preview: true });
}

/** The file's text; none when it does not exist (no rotated part yet). */
const textOrNone = (path: string) =>
  readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? "" : Promise.reject(err)));
