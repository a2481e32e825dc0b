/**
 * Hover on a line an agent wrote: which agent, which turn of which thread, how long ago, and "Open turn". Read
 * from the ledgers (so it survives reloads); a line edited by hand since no longer says so. The provenance index
 * caches what it read until a ledger is appended to: by this window (`reset`, from the ledger host's event) or by
 * another process (a watcher on the ledger folder), so hovering reads no file while nothing was recorded; what it
 * reads, it reads off the host's thread (the provider answers with a promise).
 */
import { watch, type FSWatcher } from "node:fs";
import { mkdir } from "node:fs/promises";
import * as vscode from "vscode";
import type { LineOrigin, ProvenanceIndex } from "../../core/ledger/provenance";
import { elapsed } from "../time-format";

export class ProvenanceHover implements vscode.HoverProvider, vscode.Disposable {
  /** Per document: its version and its lines' origins (being) worked out; dropped by `reset`. */
  readonly #cache = new Map<string, { version: number; lines: Promise<(LineOrigin | null)[]> }>();
  readonly #sub: vscode.Disposable;
  #watcher: FSWatcher | undefined;
  #disposed = false;

  constructor(
    private readonly index: ProvenanceIndex,
    private readonly titleOf: (threadId: string) => Promise<string | undefined>,
  ) {
    this.#sub = vscode.Disposable.from(
      vscode.languages.registerHoverProvider({ scheme: "file" }, this),
      vscode.workspace.onDidCloseTextDocument((d) => this.#cache.delete(d.uri.toString())),
    );
    this.#watch().then(undefined, () => undefined); // it catches its own failures: no watch
  }

  /** Forget what was worked out (a ledger changed: `threadId`'s, or any). */
  reset(threadId?: string): void {
    this.index.invalidate(threadId);
    this.#cache.clear();
  }

  /** The folder made off the host's thread; once the watch runs, what was worked out before it is forgotten. */
  async #watch(): Promise<void> {
    try {
      await mkdir(this.index.dir, { recursive: true, mode: 0o700 }); // once, so another process's first ledger is seen
      if (this.#disposed) return;
      this.#watcher = watch(this.index.dir, { persistent: false }, (_e, name) => {
        const file = typeof name === "string" ? name : "";
        if (file.endsWith(".jsonl")) this.reset(file.slice(0, -".jsonl".length));
      });
      this.#watcher.on("error", () => this.#watcher?.close());
      this.reset(); // a ledger another process recorded while the folder was made
    } catch {
      // no ledger folder yet: this window's own recordings still reset the cache (a reload sees other processes')
    }
  }

  /** Who wrote `line` of `doc`: worked out off the host's thread once per document version (and ledger change). */
  async originAt(doc: vscode.TextDocument, line: number): Promise<LineOrigin | null> {
    const key = doc.uri.toString();
    let hit = this.#cache.get(key);
    if (!hit || hit.version !== doc.version) {
      const lines = this.index.linesOf(doc.uri.fsPath, doc.getText());
      const mine = (hit = { version: doc.version, lines });
      this.#cache.set(key, mine);
      lines.catch(() => {
        if (this.#cache.get(key) === mine) this.#cache.delete(key); // a failed read is asked again
      });
    }
    return (await hit.lines)[line] ?? null;
  }

  async provideHover(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    token?: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const o = await this.originAt(doc, pos.line);
    if (!o || token?.isCancellationRequested) return undefined;
    const title = await this.titleOf(o.threadId);
    if (token?.isCancellationRequested) return undefined;
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
    this.#disposed = true;
    this.#watcher?.close();
    this.#sub.dispose();
  }
}

const escape = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
