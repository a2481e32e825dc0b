/**
 * The workspace's files and folders for `@` completion: listed once with VS Code's own file search
 * (`workspace.findFiles`, ripgrep underneath; `files.exclude` and `search.exclude` honoured), kept current by
 * a file watcher, and matched in memory (core/prompt/fuzzy) so each keystroke costs milliseconds even with
 * 100k files. Built lazily (first `@` or first thread panel), never during activation.
 */
import * as vscode from "vscode";
import { PathIndex, type PathMatch } from "../../core/prompt/fuzzy";

/** Upper bound on listed files (a 100k-file workspace fits). */
export const MAX_INDEXED_FILES = 250_000;

export interface FileHit {
  uri: vscode.Uri;
  /** Path shown to the user: workspace-relative, prefixed with the folder name in a multi-root workspace. */
  rel: string;
  kind: "file" | "folder";
  match: PathMatch;
}

/** `files.exclude` + `search.exclude` (entries set to true) as one glob for findFiles. */
export function excludeGlob(): string | undefined {
  const globs = new Set<string>();
  for (const section of ["files", "search"]) {
    const map = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>("exclude") ?? {};
    for (const [glob, on] of Object.entries(map)) if (on === true) globs.add(glob);
  }
  return globs.size ? `{${[...globs].join(",")}}` : undefined;
}

export class WorkspaceFileIndex implements vscode.Disposable {
  readonly #index = new PathIndex();
  #building: Promise<void> | undefined;
  #ready = false;
  #watcher: vscode.FileSystemWatcher | undefined;
  readonly #subs: vscode.Disposable[] = [];
  /** How long the last build took and how many files it listed (host tests, bench). */
  lastBuild: { ms: number; files: number; folders: number } | undefined;

  get ready(): boolean {
    return this.#ready;
  }

  get size(): number {
    return this.#index.size;
  }

  /** Starts (once) and awaits the listing. */
  ensure(): Promise<void> {
    this.#building ??= this.#build().catch((err) => {
      this.#building = undefined;
      throw err;
    });
    return this.#building;
  }

  /** Drops everything: the next `ensure` lists again (folders added or removed, exclude settings changed). */
  reset(): void {
    this.#building = undefined;
    this.#ready = false;
    this.#index.clear();
  }

  search(query: string, limit = 30, kinds?: "file" | "folder"): FileHit[] {
    const filter = kinds ? (p: string) => p.endsWith("/") === (kinds === "folder") : undefined;
    return this.#index.search(query, limit, filter).flatMap((match) => {
      const uri = this.#toUri(match.path);
      if (!uri) return [];
      const folder = match.path.endsWith("/");
      return [{ uri, rel: folder ? match.path.slice(0, -1) : match.path, kind: folder ? "folder" : "file", match }];
    });
  }

  #multiRoot(): boolean {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  }

  /** Index key of a URI: relative path (folder name first in a multi-root workspace), or undefined outside. */
  keyOf(uri: vscode.Uri, folder = false): string | undefined {
    const ws = vscode.workspace.getWorkspaceFolder(uri);
    if (!ws) return undefined;
    const rel = vscode.workspace.asRelativePath(uri, this.#multiRoot());
    if (!rel || rel === uri.fsPath) return undefined;
    return folder ? `${rel}/` : rel;
  }

  #toUri(key: string): vscode.Uri | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const path = key.endsWith("/") ? key.slice(0, -1) : key;
    if (!this.#multiRoot()) return folders[0] ? vscode.Uri.joinPath(folders[0].uri, path) : undefined;
    const slash = path.indexOf("/");
    const name = slash < 0 ? path : path.slice(0, slash);
    const root = folders.find((f) => f.name === name);
    return root && slash >= 0 ? vscode.Uri.joinPath(root.uri, path.slice(slash + 1)) : root?.uri;
  }

  #addFile(key: string): void {
    this.#index.add(key);
    // every ancestor folder becomes mentionable too
    for (let at = key.lastIndexOf("/"); at > 0; at = key.lastIndexOf("/", at - 1)) {
      const dir = key.slice(0, at + 1);
      if (this.#index.has(dir)) break;
      this.#index.add(dir);
    }
  }

  async #build(): Promise<void> {
    const started = performance.now();
    this.#watch();
    const exclude = excludeGlob();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uris = await vscode.workspace.findFiles(
        new vscode.RelativePattern(folder, "**/*"),
        exclude,
        MAX_INDEXED_FILES,
      );
      for (const uri of uris) {
        const key = this.keyOf(uri);
        if (key) this.#addFile(key);
      }
    }
    this.#ready = true;
    this.#index.search("e", 1); // compiles the matcher's hot path now rather than on the first keystroke
    const all = this.#index.paths();
    const folders = all.filter((p) => p.endsWith("/")).length;
    this.lastBuild = { ms: performance.now() - started, files: all.length - folders, folders };
  }

  #watch(): void {
    if (this.#watcher) return;
    this.#watcher = vscode.workspace.createFileSystemWatcher("**/*");
    this.#subs.push(
      this.#watcher,
      this.#watcher.onDidCreate(async (uri) => {
        const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
        const key = this.keyOf(uri, stat?.type === vscode.FileType.Directory);
        if (key && stat?.type === vscode.FileType.Directory) this.#index.add(key);
        else if (key) this.#addFile(key);
      }),
      this.#watcher.onDidDelete((uri) => {
        const key = this.keyOf(uri);
        if (!key) return;
        this.#index.delete(key);
        this.#index.deleteUnder(key);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    );
  }

  dispose(): void {
    for (const d of this.#subs.splice(0)) d.dispose();
    this.#watcher = undefined;
  }
}
