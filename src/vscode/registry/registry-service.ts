/**
 * The editor's handle on the registry core: which registry (`acpThreads.registry.url`, the
 * ACP_THREADS_REGISTRY_URL variable wins), the last listing read (for "update available" hints without a
 * network round trip each time), the installed agents, and one event when they change (pickers, tree, doctor).
 *
 * The installed agents are read off the extension host's thread and kept until `installed.json` changes: every
 * open new-thread panel lists them on each settings change, so a read per list was a synchronous read of the file
 * per panel per change. A change is this window's own install or removal, or another process's (the CLI's
 * `acp-threads agents install`): a watch of the agents folder says so at once, and the lists are told (onDidChange).
 * A watch rather than a short keep: nothing is read while nothing changes, and an install elsewhere shows in the
 * open panels without waiting for the next settings change. Without a watch (the folder could not be made or
 * watched) nothing is kept: each list reads the file (off the thread).
 */
import { mkdirSync, watch, type FSWatcher } from "node:fs";
import * as vscode from "vscode";
import {
  agentsLayout,
  fetchRegistry,
  installAgent,
  listInstalledAsync,
  resolveRegistryUrl,
  uninstallAgent,
  updateFor,
  type InstalledAgent,
  type InstallProgress,
  type RegistryAgent,
  type RegistryListing,
} from "../../core/registry";
import type { Config } from "../config";

export class RegistryService implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  /** Fires after an install, an update or a removal. */
  readonly onDidChange = this.#changed.event;
  #last: RegistryListing | undefined;
  #reading: Promise<RegistryListing> | undefined;
  /** The installed agents as last read; kept only while the watch runs. */
  #kept: Promise<InstalledAgent[]> | undefined;
  /** The list as last read, and as the lists were last told of it (onDidChange): JSON, to tell a real change. */
  #seen: string | undefined;
  #told: string | undefined;
  #stale = false;
  #checking: Promise<void> | undefined;
  #watcher: FSWatcher | undefined;
  /** Told of each read of the installed agents' file (not of a kept answer): the host suite counts them. */
  onRead?: () => void;

  constructor(
    private readonly home: string,
    private readonly config: Config,
  ) {
    this.#watch();
  }

  get url(): string {
    return resolveRegistryUrl({ env: process.env, setting: this.config.registryUrl });
  }

  /** The last listing read from the current registry, if any. */
  get last(): RegistryListing | undefined {
    return this.#last?.url === this.url ? this.#last : undefined;
  }

  /** Reads the registry (network, else cache, else the bundled snapshot); concurrent callers share one read. */
  listing(signal?: AbortSignal): Promise<RegistryListing> {
    const url = this.url;
    this.#reading ??= fetchRegistry({ url, dataHome: this.home, signal })
      .then((l) => (this.#last = l))
      .finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  /** The agents installed from the registry (kept; read again when `installed.json` changed). */
  installed(): Promise<InstalledAgent[]> {
    if (this.#kept) return this.#kept;
    const reading = this.#read();
    if (this.#watcher) this.#kept = reading;
    return reading;
  }

  /** The newer registry entry of each installed agent, from the last listing read. */
  async updates(): Promise<Map<string, RegistryAgent>> {
    const out = new Map<string, RegistryAgent>();
    const index = this.last?.index;
    if (!index) return out;
    for (const a of await this.installed()) {
      const next = updateFor(a, index);
      if (next) out.set(a.id, next);
    }
    return out;
  }

  async install(
    agent: RegistryAgent,
    onProgress: (p: InstallProgress) => void,
    signal: AbortSignal,
  ): Promise<InstalledAgent> {
    const done = await installAgent(agent, { dataHome: this.home, registryUrl: this.url, onProgress, signal });
    await this.#changedHere();
    return done;
  }

  async remove(id: string): Promise<boolean> {
    const gone = uninstallAgent(id, this.home);
    if (gone) await this.#changedHere();
    return gone;
  }

  dispose(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#changed.dispose();
  }

  #read(): Promise<InstalledAgent[]> {
    this.onRead?.();
    const reading = listInstalledAsync(this.home).then((agents) => {
      this.#seen = JSON.stringify(agents);
      this.#told ??= this.#seen;
      return agents;
    });
    // a failed read (a corrupt file) is the asker's to show, and is not kept: the next ask reads again
    reading.catch(() => this.#kept === reading && (this.#kept = undefined));
    return reading;
  }

  /** This window installed or removed an agent: the lists are told once the new list is read. */
  async #changedHere(): Promise<void> {
    this.#kept = undefined;
    await this.installed().catch(() => undefined);
    this.#told = this.#seen;
    this.#changed.fire();
  }

  /** `installed.json` changed (a rename lands it; this window's own change too): read it, tell the lists if new. */
  #changedOnDisk(): void {
    this.#kept = undefined;
    this.#stale = true;
    if (!this.#checking) this.#checking = this.#check().finally(() => (this.#checking = undefined));
  }

  async #check(): Promise<void> {
    while (this.#stale) {
      this.#stale = false;
      await this.installed().catch(() => undefined);
      if (this.#seen === this.#told) continue;
      this.#told = this.#seen;
      this.#changed.fire();
    }
  }

  #watch(): void {
    const { root, installedFile } = agentsLayout(this.home);
    const name = installedFile.slice(root.length + 1);
    try {
      mkdirSync(root, { recursive: true, mode: 0o700 }); // once, so another process's first install is seen
      this.#watcher = watch(root, { persistent: false }, (_e, file) => {
        if (file === null || file === name) this.#changedOnDisk();
      });
      this.#watcher.on("error", () => {
        this.#watcher?.close();
        this.#watcher = undefined;
        this.#kept = undefined;
      });
    } catch {
      // no watch: nothing is kept (each list reads the file)
    }
  }
}
