/**
 * The new threads whose panels are open and whose agent has not started yet (#37), with what each one's panel chose
 * before Send: "best of N" checked (with the repository a scripted caller named), and its folder (#35: the active
 * editor's when the panel opened, or the one picked in the panel).
 */
import { draftFolder, editorFolder, isWorkspaceFolder } from "./draft-folder";

export class NewDrafts {
  readonly #ids = new Set<string>();
  readonly #bestOf = new Map<string, { cwd?: string }>();
  readonly #folder = new Map<string, string>();

  /** A new thread's panel about to open: its folder is read now, while its webview is not yet the active editor. */
  open(threadId: string, bestOf?: { cwd?: string }): void {
    this.#ids.add(threadId);
    const folder = editorFolder();
    if (folder) this.#folder.set(threadId, folder);
    if (bestOf) this.#bestOf.set(threadId, bestOf);
  }

  /** A new thread's panel again (restored after a reload, or its start failed): what it chose is kept. */
  add(threadId: string): void {
    this.#ids.add(threadId);
  }

  has(threadId: string): boolean {
    return this.#ids.has(threadId);
  }

  /** Its agent started: it is a thread now. */
  end(threadId: string): void {
    this.#ids.delete(threadId);
    this.#bestOf.delete(threadId);
    this.#folder.delete(threadId);
  }

  /** The folder the new thread works in: the one chosen when it is a workspace folder, else the first. */
  folder(threadId: string): string {
    return draftFolder(this.#folder.get(threadId));
  }

  /** A folder picked in its panel; false (nothing kept) for no draft or a folder outside the workspace. */
  pick(threadId: string, folder: string): boolean {
    if (!this.#ids.has(threadId) || !isWorkspaceFolder(folder)) return false;
    this.#folder.set(threadId, folder);
    return true;
  }

  /** Opened by "Best of N…" ("best of N" checked). */
  isBestOf(threadId: string): boolean {
    return this.#bestOf.has(threadId);
  }

  /** The repository a scripted "Best of N…" named for it. */
  bestOfCwd(threadId: string): string | undefined {
    return this.#bestOf.get(threadId)?.cwd;
  }
}
