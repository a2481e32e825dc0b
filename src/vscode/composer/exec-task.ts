/**
 * A composed prompt as the task of an agent CLI run in a terminal (`codex exec`, `claude --print`, …): those
 * take one string, so mentions become workspace-relative `@paths` (with `:L1-L2` for ranges) and context
 * without a file (diagnostics, Problems, threads) is appended as text. Images cannot be passed.
 */
import * as vscode from "vscode";
import { AcpThreadsError } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import type { ContextSources } from "../../core/prompt/blocks";
import { rangeLabel } from "../../core/prompt/refs";

export async function execTask(parts: readonly PromptPart[], sources: ContextSources): Promise<string> {
  let text = "";
  const extra: string[] = [];
  for (const p of parts) {
    if (p.type === "text") {
      text += p.text;
      continue;
    }
    const item = p.item;
    if (item.kind === "image")
      throw new AcpThreadsError("usage", "images cannot be passed to an agent CLI run in a terminal; use an ACP agent");
    if (item.path && item.kind !== "diagnostic") {
      const rel = vscode.workspace.asRelativePath(item.path);
      text += `@${rel}${item.range && item.kind !== "file" ? `:${rangeLabel(item.range)}` : ""}`;
      continue;
    }
    text += `@${item.label}`;
    const body =
      item.content ?? (item.kind === "thread" && item.threadId ? await sources.threadText?.(item.threadId) : undefined);
    if (body) extra.push(`[${item.label}]\n${body}`);
  }
  return extra.length ? `${text}\n\nContext:\n\n${extra.join("\n\n")}` : text;
}
