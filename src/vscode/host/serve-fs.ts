/**
 * This window serving the thread host's agents their files (#35 item 7, src/core/host/editor-serve.ts): while it is
 * trusted it offers its workspace folders, and answers each read and write the host asks with the `WorkspaceFiles`
 * its own sessions use (workspace-files.ts: an open editor's unsaved text, a write merged into the open buffer and
 * saved, a conflict in the merge view). The host checked the session's roots and policy before asking; the path is
 * checked here again against this window's folders (a path outside them is refused, never served). A write the
 * host stopped waiting for (`signal`) is not applied (workspace-files.ts checks it before each apply).
 */
import * as vscode from "vscode";
import { PathGuard } from "../../core/acp/path-guard";
import { AcpThreadsError, errorMessage } from "../../core/errors";
import { MAX_SERVED_TEXT_BYTES } from "../../core/host/protocol";
import type { ServeAnswer, ServeOffer, ServeOp } from "../../core/host/protocol-serve";
import type { WorkspaceFiles } from "../../core/ports";

/**
 * The window's folders on disk, while the workspace is trusted (an untrusted window serves nothing): their files,
 * and the agents' terminals shown as integrated terminals (serve-terminals.ts).
 */
export function serveOffer(): ServeOffer | undefined {
  if (!vscode.workspace.isTrusted) return undefined;
  const roots = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => f.uri.fsPath);
  return roots.length ? { fs: true, terminals: true, roots } : undefined;
}

/** Answers the host's file requests with `files`, inside the folders `offer` gives at the time. */
export function fsServer(
  files: Required<WorkspaceFiles>,
  offer: () => ServeOffer | undefined,
): (op: ServeOp, signal?: AbortSignal) => Promise<ServeAnswer> {
  let guard: { key: string; guard: PathGuard } | undefined;
  const guardOf = (roots: string[]) => {
    const key = JSON.stringify(roots);
    if (guard?.key !== key) guard = { key, guard: new PathGuard(roots) };
    return guard.guard;
  };
  return async (op, signal) => {
    try {
      const roots = offer()?.roots;
      if (!roots)
        throw new AcpThreadsError("permission_denied", "this window serves no files (untrusted or no folder)");
      const path = await guardOf(roots).check(op.path);
      if (op.kind === "write") {
        await files.writeText(path, op.content, op.lastRead, signal);
        return { done: true };
      }
      const content = op.range ? await files.readLines(path, op.range) : await files.readText(path);
      if (content && Buffer.byteLength(JSON.stringify(content)) > MAX_SERVED_TEXT_BYTES)
        return { failed: "the text is too large for a message" };
      return { done: true, content: content ?? null };
    } catch (err) {
      if (err instanceof AcpThreadsError && (err.code === "permission_denied" || err.code === "path_outside_workspace"))
        return { refused: err.message, code: err.code };
      return { failed: errorMessage(err) };
    }
  };
}
