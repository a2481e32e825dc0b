/** Files dropped on the prompt box: images become attachments, anything else a context chip. */
import * as vscode from "vscode";
import type { ContextItem, ContextRef } from "../../core/model/context";
import type { HostMessage } from "../../webview/thread/protocol";
import { uriItem } from "./editor-context";

/** A context item as the webview gets it (no image bytes). */
export function wireItem(item: ContextItem): { ref: ContextRef; content?: string } {
  const { content, data: _d, thumbData: _t, ...ref } = item;
  return { ref, ...(content !== undefined ? { content } : {}) };
}

export async function droppedOn(panel: { post(m: HostMessage): void }, uris: string[]): Promise<void> {
  const items: ContextItem[] = [];
  const images: { name: string; data: string }[] = [];
  for (const raw of uris) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(raw, true);
    } catch {
      continue;
    }
    if (/\.(png|jpe?g|gif|webp)$/i.test(uri.path) && uri.scheme === "file") {
      const data = await vscode.workspace.fs.readFile(uri);
      images.push({ name: uri.path.split("/").pop()!, data: Buffer.from(data).toString("base64") });
      continue;
    }
    const item = await uriItem(uri);
    if (item) items.push(item);
  }
  if (items.length || images.length) panel.post({ type: "insertContext", items: items.map(wireItem), images });
}
