/**
 * Hover on a line an agent wrote: which agent, which turn of which thread, how long ago, and "Open turn". Read
 * from the ledgers (so it survives reloads); a line edited by hand since no longer says so.
 */
import * as vscode from "vscode";
import type { LineOrigin, ProvenanceIndex } from "../../core/ledger/provenance";
import { elapsed } from "../time-format";

export class ProvenanceHover implements vscode.HoverProvider, vscode.Disposable {
  readonly #cache = new Map<string, { version: number; lines: (LineOrigin | null)[] }>();
  readonly #sub: vscode.Disposable;

  constructor(
    private readonly index: ProvenanceIndex,
    private readonly titleOf: (threadId: string) => string | undefined,
  ) {
    this.#sub = vscode.Disposable.from(
      vscode.languages.registerHoverProvider({ scheme: "file" }, this),
      vscode.workspace.onDidCloseTextDocument((d) => this.#cache.delete(d.uri.toString())),
    );
  }

  /** Forget what was worked out (the ledger changed). */
  reset(): void {
    this.#cache.clear();
  }

  originAt(doc: vscode.TextDocument, line: number): LineOrigin | null {
    const key = doc.uri.toString();
    let hit = this.#cache.get(key);
    if (!hit || hit.version !== doc.version) {
      hit = { version: doc.version, lines: this.index.linesOf(doc.uri.fsPath, doc.getText()) };
      this.#cache.set(key, hit);
    }
    return hit.lines[line] ?? null;
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const o = this.originAt(doc, pos.line);
    if (!o) return undefined;
    const title = this.titleOf(o.threadId);
    const args = encodeURIComponent(JSON.stringify([o.threadId, o.turn]));
    const md = new vscode.MarkdownString(
      `$(hubot) Written by **${escape(o.agent?.name ?? "an agent")}** in turn ${o.turn} of ` +
        `${title ? `“${escape(title)}”` : `thread ${o.threadId.slice(0, 13)}`} · ${elapsed(Date.now() - Date.parse(o.ts))} ago\n\n` +
        `[Open turn](command:acpThreads.openTurn?${args}) · [Review changes](command:acpThreads.reviewTurn?${args})`,
      true,
    );
    md.isTrusted = { enabledCommands: ["acpThreads.openTurn", "acpThreads.reviewTurn"] };
    return new vscode.Hover(md, doc.lineAt(pos.line).range);
  }

  dispose(): void {
    this.#sub.dispose();
  }
}

const escape = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
