/**
 * Prompt parts from the webview (untrusted) → core prompt parts: every file-backed mention must lie in a
 * workspace folder or be open in an editor (a forged path never makes the host read a file for the agent),
 * thread mentions must name a stored thread (or carry the recall text they were offered with), and images are
 * decoded and checked by their bytes.
 */
import * as vscode from "vscode";
import { AcpThreadsError } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import { imageItem } from "../../core/prompt/images";
import { THREAD_URI_PREFIX } from "../../core/prompt/refs";
import type { WirePart } from "../../webview/thread/protocol";

/** True when the path is inside a workspace folder or is an open document. */
export function allowedPath(path: string): boolean {
  const uri = vscode.Uri.file(path);
  if (vscode.workspace.getWorkspaceFolder(uri)) return true;
  return vscode.workspace.textDocuments.some((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
}

/**
 * The parts in order; the first that does not resolve throws. `threadExists` looks a mentioned thread up (off the
 * host's thread); it is asked only for a thread mention without the text it was offered with.
 */
export async function resolveParts(
  parts: readonly WirePart[],
  threadExists: (id: string) => Promise<boolean>,
): Promise<PromptPart[]> {
  const out: PromptPart[] = [];
  for (const p of parts) out.push(await resolvePart(p, threadExists));
  return out;
}

async function resolvePart(p: WirePart, threadExists: (id: string) => Promise<boolean>): Promise<PromptPart> {
  if (p.type === "text") return p;
  if (p.type === "image") {
    const data = Buffer.from(p.data, "base64");
    const thumb = p.thumb ? Buffer.from(p.thumb, "base64") : undefined;
    return { type: "context", item: imageItem(data, p.name, thumb ? { thumbData: thumb } : {}) };
  }
  const ref = p.ref;
  if (ref.kind === "image")
    throw new AcpThreadsError("usage", `the image ${ref.label} can only be attached again by pasting it`);
  if (ref.path !== undefined && !allowedPath(ref.path))
    throw new AcpThreadsError("path_outside_workspace", `${ref.path} is outside the workspace; it was not attached`);
  if ((ref.kind === "file" || ref.kind === "folder" || ref.kind === "selection" || ref.kind === "symbol") && !ref.path)
    throw new AcpThreadsError("usage", `the mention ${ref.label} has no path`);
  if (ref.kind === "thread" && p.content === undefined) {
    const id = ref.threadId ?? (ref.uri.startsWith(THREAD_URI_PREFIX) ? ref.uri.slice(THREAD_URI_PREFIX.length) : "");
    if (!id || !(await threadExists(id)))
      throw new AcpThreadsError("not_found", `the thread "${ref.label}" no longer exists`);
    return { type: "context", item: { ...ref, threadId: id } };
  }
  return { type: "context", item: { ...ref, ...(p.content !== undefined ? { content: p.content } : {}) } };
}
