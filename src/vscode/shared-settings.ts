/**
 * The settings this window shares with the CLI through the data home (`<home>/settings.json`,
 * core/store/home-settings.ts): one exec TTL, one registry, one traffic cap whichever side reads them. Written at
 * activation and at each change of the configuration, off the extension host's thread, one write at a time in the
 * order of the changes. The window itself reads its own configuration, never the file.
 */
import type * as vscode from "vscode";
import { writeHomeSettingsAsync } from "../core/store/home-settings";
import type { Config } from "./config";

export class SharedSettings implements vscode.Disposable {
  #last: Promise<void> = Promise.resolve();
  readonly #sub: vscode.Disposable;

  constructor(
    private readonly home: string,
    private readonly config: Config,
    private readonly warn: (message: string, err: unknown) => void,
  ) {
    this.#share();
    this.#sub = config.onDidChange(() => this.#share());
  }

  /** Settles once the data home holds the settings as they were at their last change. */
  get written(): Promise<void> {
    return this.#last;
  }

  /** How long finished exec runs are kept (acpThreads.exec.ttlMinutes), in ms. */
  get execTtlMs(): number {
    return this.config.execTtlMinutes * 60_000;
  }

  #share(): void {
    const patch = {
      execTtlMinutes: this.config.execTtlMinutes,
      // acpThreads.registry.url too: `acp-threads agents` in a terminal then reads the same registry
      registryUrl: this.config.registryUrl,
      trafficMaxTotalMB: this.config.trafficMaxTotalMB,
    };
    this.#last = this.#last
      .then(() => writeHomeSettingsAsync(this.home, patch))
      .then(
        () => undefined,
        (err) => this.warn("could not write the shared settings of the data home", err),
      );
  }

  dispose(): void {
    this.#sub.dispose();
  }
}
