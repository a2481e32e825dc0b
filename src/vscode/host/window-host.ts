/**
 * The window's own thread host (#35 item 7, step 3): a host in the extension host's process that never listens
 * (core/host/server.ts `ThreadHost.inProcess`: no lock, socket or key file), made the first time this window asks
 * for it, serving this window alone over in-process connections (`connect`). Its runs are the engine's runner with
 * the window's front end (window-front.ts). `stop` (the extension's shutdown) interrupts its runs, as a window
 * session is closed when the window goes: each thread file then records the run interrupted.
 *
 * Nothing here waits on the disk on the window's thread: the in-process host prepares no place and takes no lock;
 * its engine process's script is named here (not looked for); its feed reads records asynchronously.
 */
import { join } from "node:path";
import { connectInProcess, type HostConnection } from "../../core/host/client";
import type { ServeOffer } from "../../core/host/protocol-serve";
import { ThreadHost } from "../../core/host/server";
import { windowRunner, type WindowFrontDeps } from "./window-front";

export interface WindowHostOptions extends WindowFrontDeps {
  /** The extension's folder: its dist/ holds the engine process the host's long engine requests run in. */
  extensionPath: string;
}

export class WindowHost {
  #host: ThreadHost | undefined;

  constructor(private readonly opts: WindowHostOptions) {}

  /** The host, made now if this window has none yet. */
  get host(): ThreadHost {
    if (!this.#host) {
      const { home, logger, extensionPath } = this.opts;
      this.#host = ThreadHost.inProcess({
        home,
        logger,
        runner: windowRunner({ ...this.opts, walkWorker: join(extensionPath, "dist", "walk-worker.js") }),
        engineScripts: { process: join(extensionPath, "dist", "engine-process-worker.js") },
      });
    }
    return this.#host;
  }

  /** Made already (and not stopped since). */
  get started(): boolean {
    return !!this.#host;
  }

  /** A new client connection to it, saying hello as `client` with what this window serves. */
  connect(client: string, serves?: ServeOffer): Promise<HostConnection> {
    return connectInProcess(this.host.connect(), { client, watching: true, ...(serves ? { serves } : {}) });
  }

  /**
   * Stops it (its runs interrupted, their thread files saying so); resolves once it has. A later connection makes
   * a new host (the extension's shutdown stops it last, after which nothing connects).
   */
  async stop(): Promise<void> {
    const host = this.#host;
    this.#host = undefined;
    if (host) await host.stop();
  }
}
