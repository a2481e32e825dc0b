/**
 * Workspace Trust gate. Every path that starts an agent or an exec run goes through `assertTrusted`,
 * so the host suite can prove the refusal in a run with trust enabled and the folder untrusted.
 */
import * as vscode from "vscode";
import { AcpThreadsError } from "../core/errors";

export const UNTRUSTED_MESSAGE =
  "ACP Threads does not start agents in an untrusted workspace: agents run commands and edit files. Trust this folder (Manage Workspace Trust) to continue.";

export function assertTrusted(isTrusted: boolean = vscode.workspace.isTrusted): void {
  if (!isTrusted) throw new AcpThreadsError("untrusted_workspace", UNTRUSTED_MESSAGE);
}
