/**
 * Node runtimes in the editor: the engine gets `acpThreads.nodePath` and the managed runtimes folder; when an
 * agent cannot start for lack of a Node its package accepts, the error offers "Install Node runtime", which
 * installs a managed Node (npm's node-<os>-<arch> package) into the data home with a progress notification, through
 * the engine's `runtime.install` request.
 */
import * as vscode from "vscode";
import { AcpThreadsError, errorMessage } from "../core/errors";
import type { Engine } from "../core/engine/requests";
import type { AgentNodeChoice } from "../core/engine/requests-agents";
import type { NodeRuntimeOptions } from "../core/runtime/node-select";
import { runtimesDirOf } from "../core/runtime/runtimes-dir";
import type { Config } from "./config";
import type { Notifier } from "./notifier";
import { background } from "../core/util/unexpected";

export const INSTALL_NODE = "Install Node runtime";

export function nodeRuntimeOptions(config: Config, home: string): NodeRuntimeOptions {
  return { nodePath: config.nodePath, runtimesDir: runtimesDirOf(home) };
}

/** The same for an engine request: the setting, and the data home's managed runtimes. */
export function nodeChoice(config: Config): AgentNodeChoice {
  return { ...(config.nodePath !== undefined ? { nodePath: config.nodePath } : {}), managedNodes: true };
}

/** The Node major an agent-start error asks for, when the error is "no Node fits" (see runtime/node-launch.ts). */
export function missingNodeMajor(err: unknown): number | undefined {
  if (!(err instanceof AcpThreadsError)) return undefined;
  const node = err.details?.nodeRuntime as { major?: unknown } | undefined;
  return typeof node?.major === "number" ? node.major : undefined;
}

/** Installs Node `major` into the managed runtimes folder, with progress; resolves false when it failed. */
export async function installNodeRuntime(engine: Engine, major?: number): Promise<boolean> {
  try {
    const node = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "ACP Threads: Node runtime", cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return engine.call(
          { op: "runtime.install", ...(major === undefined ? {} : { spec: String(major) }) },
          { signal: abort.signal, onProgress: (p) => p.t === "step" && progress.report({ message: p.message }) },
        );
      },
    );
    void vscode.window.showInformationMessage(`Node ${node.version} is installed for agents. Start the agent again.`);
    return true;
  } catch (err) {
    void vscode.window.showErrorMessage(`Could not install a Node runtime: ${errorMessage(err)}`);
    return false;
  }
}

/**
 * Shows a "no Node fits" start error with the install action (other errors are left to the caller): a window
 * session's start error, or the thread host's `start_failed` refusal, which carries the same details.
 */
export function offerNodeInstall(err: unknown, engine: Engine, notifier: Notifier): void {
  const major = missingNodeMajor(err);
  if (major === undefined) return;
  const offer = notifier.show("error", errorMessage(err), INSTALL_NODE).then(async (pick) => {
    if (pick === INSTALL_NODE) await installNodeRuntime(engine, major);
  });
  background(offer, "offering to install a Node runtime");
}
