/**
 * The new threads whose panels are open and whose agent has not started yet (#37), with what each one's panel chose
 * before Send: "best of N" checked (with the repository a scripted caller named), and its folder (#35: the active
 * editor's when the panel opened, or the one picked in the panel).
 */
import { isThreadId } from "../../core/model/thread-id";
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

  /**
   * Whether `threadId`'s panel is a new thread's. A panel restored after a window reload whose id names no live
   * session (`live`) and no stored thread (`stored`, looked for off the host's thread) was a new thread too (its agent
   * never started): it becomes one again, in `folder` (the one it was in, from the panel's state) when that is
   * still a workspace folder.
   */
  async check(
    threadId: string,
    live: (id: string) => boolean,
    stored: (id: string) => Promise<boolean>,
    folder?: string,
  ) {
    if (this.#ids.has(threadId)) return true;
    if (!isThreadId(threadId) || live(threadId)) return false;
    const exists = await stored(threadId);
    // as things are now: the panel may have become a new thread, or a session of it started, meanwhile
    if (this.#ids.has(threadId)) return true;
    if (exists || live(threadId)) return false;
    this.#ids.add(threadId);
    // the folder it was in before the reload (its panel's state), if that is still a workspace folder
    if (folder && isWorkspaceFolder(folder)) this.#folder.set(threadId, folder);
    return true;
  }

  /** The init header of a new thread's panel: its folder, as its picker shows it. */
  header(threadId: string) {
    // no agent yet: the header names the folder only (the picker below names the agent)
    return { threadId, title: "New thread", agent: "", cwd: this.folder(threadId), acceptsInput: true };
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
