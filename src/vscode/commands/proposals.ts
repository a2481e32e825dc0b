/**
 * Accept / Reject in the title bar of a proposal's diff editor (a permission request's "Review", or a code
 * block's "Apply to file"): answers it without going back to the thread panel, then closes the diff.
 */
import * as vscode from "vscode";
import type { Hub } from "../hub";

async function decide(hub: Hub, uri: unknown, which: "accept" | "reject"): Promise<void> {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const actions = hub.proposed.actionsFor(target);
  if (!actions) {
    void vscode.window.showInformationMessage("This proposal was already answered.");
    return;
  }
  await actions[which]();
  if (vscode.window.activeTextEditor?.document.uri.toString() === target?.toString())
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  else {
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === target?.toString());
    if (tab) await vscode.window.tabGroups.close(tab);
  }
}

export const acceptProposed = (hub: Hub, uri?: unknown) => decide(hub, uri, "accept");
export const rejectProposed = (hub: Hub, uri?: unknown) => decide(hub, uri, "reject");
