/**
 * A Best of N another process records while this window is open (#35): `acp-threads run --worktrees --detach` in
 * the window's terminal, say, or a window on the same folder that closed. Without this the window saw such a record
 * only at its next activation (best-of-resume.ts `resumeOpenBestOf`). It is picked up the same way, through the same
 * code, within moments:
 *
 * - a change of the records' file (`best-of.json` in the data home, every write a rename into place) is told by
 *   VS Code's watch of that one file (outside the workspace: a watch of its folder, filtered by name); each change
 *   reads the records once;
 * - an open record whose owner is gone is picked up (the claim under the file's lock: one window follows it), its
 *   compare view hidden and the user told by a notification whose Open shows it;
 * - an open record another live process of this machine follows (the CLI that is still handing the candidates to
 *   the host, `acp-threads worktrees compare`, another window) is left to it: its owner's process is looked at
 *   every OWNER_POLL_MS (a signal 0, no file read) and the records are read again once it is gone.
 *
 * The first look is activation's own (the compare views opened, as before); the watch starts before it, so a change
 * made meanwhile is looked at once after. VS Code arms a watcher some milliseconds after it is made, and a change
 * before that is not told: so the window writes a probe file of its own beside the records (`best-of.json.PID.armed`,
 * again every ARM_PROBE_MS until the watch tells it), and once the watch tells the probe it is armed: the probe is
 * removed and the records are read once more.
 */
import { unlink, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import type { Hub } from "../hub";
import type { BestOfResult } from "./best-of-command";
import { followerGone, resumeOpenBestOf, type OpenBestOf } from "./best-of-resume";

/** How often the process that follows an open record is looked at (a `kill(pid, 0)`). */
export const OWNER_POLL_MS = 500;
/** How often the probe is written again until the watch tells it (at most ARM_PROBES times). */
export const ARM_PROBE_MS = 100;
const ARM_PROBES = 100;

export class BestOfWatch implements vscode.Disposable {
  #watch: vscode.FileSystemWatcher | undefined;
  /** The open records another live process follows, as last read. */
  #followed: OpenBestOf["followed"] = [];
  #timer: NodeJS.Timeout | undefined;
  #looking = false;
  /** A change told while looking (or while held): looked at once after. */
  #again = false;
  #held = false;
  #disposed = false;
  /** The probe written until the watch is armed (none: armed, or given up). */
  #probe: { file: string; timer: NodeJS.Timeout; last: Promise<unknown> } | undefined;
  /** Resolves once the watch told the probe (tests wait for it). */
  readonly armed: Promise<void>;
  #armed!: () => void;
  /** Record id → the Best of N this window picked up while open, resolved with its ranked result (tests read it). */
  readonly pickedUp = new Map<string, Promise<BestOfResult | undefined>>();

  constructor(private readonly hub: Hub) {
    this.armed = new Promise((resolve) => (this.#armed = resolve));
  }

  /** Starts the watch, then activation's look (the open records no process follows, each in its compare view). */
  start(): void {
    if (this.#disposed || this.#watch) return;
    const file = this.hub.layout.bestOfFile;
    const probe = `${file}.${process.pid}.armed`;
    const w = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(dirname(file)), `{${basename(file)},${basename(probe)}}`),
    );
    for (const on of [w.onDidCreate, w.onDidChange])
      on((uri) => (basename(uri.fsPath) === basename(probe) ? this.#told() : this.look()));
    this.#watch = w;
    this.#look(false);
    let left = ARM_PROBES;
    this.#probe = {
      file: probe,
      timer: setInterval(() => this.#write(left-- > 0), ARM_PROBE_MS),
      last: Promise.resolve(),
    };
    this.#write(true);
  }

  /** The watch told the probe: it is armed, and a change made before that is read now. */
  #told(): void {
    if (!this.#probe) return;
    this.#unprobe();
    this.#armed();
    this.look();
  }

  /** The probe written (once more); `more` false: never told, given up (the watch tells later changes, if any). */
  #write(more: boolean): void {
    const p = this.#probe;
    if (!p) return;
    if (!more) return this.#unprobe();
    p.last = p.last.then(() => writeFile(p.file, "", { mode: 0o600 })).catch(() => undefined);
  }

  /** No more probe: it is removed after the last write. */
  #unprobe(): void {
    const p = this.#probe;
    if (!p) return;
    clearInterval(p.timer);
    void p.last.then(() => unlink(p.file)).catch(() => undefined);
    this.#probe = undefined;
  }

  /** Reads the records again (at once, or after the look under way). */
  look(): void {
    if (this.#disposed) return;
    if (this.#looking || this.#held) return void (this.#again = true);
    this.#look(true);
  }

  /** Started (activation's look made), and no look under way. */
  get idle(): boolean {
    return !!this.#watch && !this.#looking;
  }

  /** Whether the record is left to another live process that follows it (picked up once that process is gone). */
  leftToOwner(id: string): boolean {
    return this.#followed.some((r) => r.id === id);
  }

  /** Tests: no look until the returned release (then one, when a change was told meanwhile). */
  holdForTests(): () => void {
    this.#held = true;
    return () => {
      this.#held = false;
      if (this.#again) this.look();
    };
  }

  #look(live: boolean): void {
    this.#looking = true;
    this.#again = false;
    const done = resumeOpenBestOf(this.hub, live).then(({ picking, followed }) => {
      this.#followed = followed;
      if (live) for (const [id, result] of picking) this.#picked(id, result);
    });
    this.#logged(
      done.finally(() => {
        this.#looking = false;
        this.#poll();
        if (this.#again) this.look();
      }),
      "looking at the Best of N records",
    );
  }

  /** Kept while it may be this window's (a result of nothing: another window or process was first). */
  #picked(id: string, result: Promise<BestOfResult | undefined>): void {
    if (this.pickedUp.has(id)) return;
    this.pickedUp.set(id, result);
    this.#logged(
      result.then(
        (r) => r || this.#drop(id, result),
        () => this.#drop(id, result),
      ),
      "following a Best of N picked up",
    );
  }

  #logged(p: Promise<unknown>, what: string): void {
    p.catch((err: unknown) => this.hub.log.logger.error(`${what} failed`, err));
  }

  #drop(id: string, result: Promise<unknown>): void {
    if (this.pickedUp.get(id) === result) this.pickedUp.delete(id);
  }

  /** The owners' processes looked at while some record is left to one; gone: the records are read again. */
  #poll(): void {
    const need = !this.#disposed && this.#followed.length > 0;
    if (need && !this.#timer)
      this.#timer = setInterval(() => {
        if (followerGone(this.#followed)) this.look();
      }, OWNER_POLL_MS);
    else if (!need && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  dispose(): void {
    this.#disposed = true;
    this.#unprobe();
    this.#watch?.dispose();
    this.#poll();
  }
}
