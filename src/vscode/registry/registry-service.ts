/**
 * The editor's handle on the registry core: which registry (`acpThreads.registry.url`, the
 * ACP_THREADS_REGISTRY_URL variable wins), the last listing read (for "update available" hints without a
 * network round trip each time), the installed agents, and one event when they change (pickers, tree, doctor).
 */
import * as vscode from "vscode";
import {
  fetchRegistry,
  installAgent,
  listInstalled,
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

  constructor(
    private readonly home: string,
    private readonly config: Config,
  ) {}

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

  installed(): InstalledAgent[] {
    return listInstalled(this.home);
  }

  /** The newer registry entry of each installed agent, from the last listing read. */
  updates(): Map<string, RegistryAgent> {
    const out = new Map<string, RegistryAgent>();
    const index = this.last?.index;
    if (!index) return out;
    for (const a of this.installed()) {
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
    this.#changed.fire();
    return done;
  }

  remove(id: string): boolean {
    const gone = uninstallAgent(id, this.home);
    if (gone) this.#changed.fire();
    return gone;
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
