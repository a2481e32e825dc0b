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
import { watch, type FSWatcher } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import * as vscode from "vscode";
import type { Engine } from "../../core/engine/requests";
import { agentsLayout } from "../../core/registry/layout";
import type { InstalledAgent, InstallProgress, RegistryAgent, RegistryListing } from "../../core/registry/types";
import { updateFor } from "../../core/registry/update-for";
import { resolveRegistryUrl } from "../../core/registry/url";
import type { Config } from "../config";

/** An install phase's share, when it says one. */
const fraction = (p: InstallProgress) => (p.fraction !== undefined ? { fraction: p.fraction } : {});

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
  /** Which `installed.json` the last read found (#stamp): a watch event for that same file has nothing new. */
  #readStamp: string | undefined;
  /** The stamp of the list the lists were last told of. */
  #toldStamp: string | undefined;
  #checking: Promise<void> | undefined;
  #watcher: FSWatcher | undefined;
  #disposed = false;
  /** Told of each read of the installed agents' file (not of a kept answer): the host suite counts them. */
  onRead?: () => void;
  /** The engine's registry requests, reading this window's registry (`url`). */
  readonly #engine: Engine;

  /** `engineFor`: the engine (the window's, in process) reading the registry `registryUrl` names. */
  constructor(
    private readonly home: string,
    private readonly config: Config,
    engineFor: (registryUrl: () => string) => Engine,
  ) {
    this.#engine = engineFor(() => this.url);
    this.#watch().then(undefined, () => undefined); // it catches its own failures: no watch, nothing kept
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
    this.#reading ??= this.#engine
      .call({ op: "registry.list" }, signal ? { signal } : {})
      .then(({ index, source, url: read, error, rejected }) => {
        const listing: RegistryListing = {
          index,
          source,
          url: read,
          rejected,
          ...(error !== undefined ? { error } : {}),
        };
        return (this.#last = listing);
      })
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

  /** Resolves once no change of `installed.json` is being looked at (the host suite counts the reads after it). */
  async settled(): Promise<void> {
    while (this.#checking) await this.#checking;
  }

  /**
   * Installs the registry's entry of `agent` (by its id: the engine reads the registry itself and installs the entry
   * it read, again when that version is installed already).
   */
  async install(
    agent: RegistryAgent,
    onProgress: (p: InstallProgress) => void,
    signal: AbortSignal,
  ): Promise<InstalledAgent> {
    const { agent: done } = await this.#engine.call(
      { op: "registry.install", agentId: agent.id, reinstall: true },
      {
        signal,
        onProgress: (p) => p.t === "install" && onProgress({ phase: p.phase, message: p.message, ...fraction(p) }),
      },
    );
    await this.#changedHere();
    return done;
  }

  async remove(id: string): Promise<boolean> {
    const { removed: gone } = await this.#engine.call({ op: "registry.remove", agentId: id });
    if (gone) await this.#changedHere();
    return gone;
  }

  dispose(): void {
    this.#disposed = true;
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#changed.dispose();
  }

  #read(): Promise<InstalledAgent[]> {
    this.onRead?.();
    // stamped before the read: a change landing meanwhile has another stamp, so its watch event reads it again
    const reading = this.#stamp().then(async (stamp) => {
      const agents = await this.#engine.call({ op: "agents.installed" });
      this.#readStamp = stamp;
      this.#seen = JSON.stringify(agents);
      this.#told ??= this.#seen;
      return agents;
    });
    // a failed read (a corrupt file) is the asker's to show, and is not kept: the next ask reads again
    reading.catch(() => this.#kept === reading && (this.#kept = undefined));
    return reading;
  }

  /**
   * This window installed or removed an agent: the lists are told once the new list is read (always: a reinstall of
   * the same version clears doctor's answers too), once, whether this call or the watch's event reads it.
   */
  async #changedHere(): Promise<void> {
    // the same look as a watch event's, in the same one loop: the new file is read once, whichever comes first
    this.#changedOnDisk();
    await this.settled();
    if (this.#toldStamp !== undefined && this.#toldStamp === this.#readStamp) return; // the look told of it
    this.#tell();
  }

  #tell(): void {
    this.#told = this.#seen;
    this.#toldStamp = this.#readStamp;
    this.#changed.fire();
  }

  /** The kept list (once its read is done) is of `installed.json` as it stands. */
  async #fresh(): Promise<boolean> {
    await this.#kept?.catch(() => undefined);
    return !!this.#kept && (await this.#stamp()) === this.#readStamp;
  }

  /**
   * `installed.json` changed (a rename lands it; this window's own change too): read it, tell the lists if new. The
   * kept list answers until the check knows it is stale: this window's own write, read already, is not read again.
   */
  #changedOnDisk(): void {
    this.#stale = true;
    if (!this.#checking) this.#checking = this.#check().finally(() => (this.#checking = undefined));
  }

  async #check(): Promise<void> {
    while (this.#stale) {
      this.#stale = false;
      if (await this.#fresh()) continue; // read already: this window's own write, its read under way or done
      this.#kept = undefined;
      await this.installed().catch(() => undefined);
      if (this.#seen !== this.#told) this.#tell();
    }
  }

  /**
   * The file as it stands: its inode, size and change times (each write lands as a new file by a rename), or none.
   * Two writes of one size landing in one tick of the file clock, the second on the first one's freed inode, would
   * look alike: not worth a read per event.
   */
  #stamp(): Promise<string> {
    return stat(agentsLayout(this.home).installedFile, { bigint: true }).then(
      (s) => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
      () => "none",
    );
  }

  /**
   * Until the watch starts (after the folder is made, off the host's thread) nothing is kept: each list reads the
   * file, so a change made meanwhile is never missed.
   */
  async #watch(): Promise<void> {
    const { root, installedFile } = agentsLayout(this.home);
    const name = installedFile.slice(root.length + 1);
    try {
      await mkdir(root, { recursive: true, mode: 0o700 }); // once, so another process's first install is seen
      if (this.#disposed) return;
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
