/**
 * Installing (or updating) a registry agent with a cancellable notification that names each phase (download
 * with its share, verify, extract, npm / uv, runtime). A failure (sha256 mismatch, no archive for this
 * platform, npm or uv failing) is shown with its reason; cancelling leaves the previous install as it was.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { InstalledAgent, InstallProgress, RegistryAgent } from "../../core/registry/types";
import type { RegistryService } from "./registry-service";

const PHASE: Record<InstallProgress["phase"], string> = {
  download: "Downloading",
  verify: "Verifying",
  extract: "Extracting",
  npm: "Installing with npm",
  uv: "Installing with uv",
  runtime: "Preparing the runtime",
  probe: "Asking how it signs in",
  done: "Done",
};

/** "Downloading: 1.2 MB" (the core's message names the phase itself when it starts with its verb). */
function phaseLine(p: InstallProgress): string {
  const words = PHASE[p.phase];
  const verb = words.split(" ")[0]!.toLowerCase();
  const msg = p.message.toLowerCase().startsWith(verb) ? p.message.slice(verb.length).trim() : p.message;
  return msg ? `${words}: ${msg}` : words;
}

/** What an install came to (also the commands' result for scripted callers and tests). */
export type InstallOutcome = { installed: InstalledAgent } | { error: string; cancelled: boolean };

/** Resolves with the install, or with the error already shown to the user (or the cancellation). */
export async function installWithProgress(
  registry: RegistryService,
  agent: RegistryAgent,
  verb: "Installing" | "Updating" = "Installing",
): Promise<InstallOutcome> {
  const abort = new AbortController();
  try {
    const installed = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `${verb} ${agent.name} ${agent.version}`,
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        let shown = 0; // percent already reported (the download's share is the bar)
        return registry.install(
          agent,
          (p) => {
            const pct = p.phase === "download" && p.fraction !== undefined ? Math.round(p.fraction * 100) : shown;
            progress.report({ message: phaseLine(p), increment: Math.max(0, pct - shown) });
            shown = Math.max(shown, pct);
          },
          abort.signal,
        );
      },
    );
    return { installed };
  } catch (err) {
    if (abort.signal.aborted) {
      void vscode.window.showInformationMessage(`ACP Threads: installing ${agent.name} was cancelled.`);
      return { error: "cancelled", cancelled: true };
    }
    const error = `could not install ${agent.name} ${agent.version}: ${errorMessage(err)}`;
    void vscode.window.showErrorMessage(`ACP Threads: ${error}`);
    return { error, cancelled: false };
  }
}
