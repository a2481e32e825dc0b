/**
 * The permission rules in the editor (#33): "Add permission rule…" takes a rule in its readable form
 * (`allow execute "npm run *"`, `deny edit "**\/.env"`, `ask read "~/.ssh/**"`) with the agent and the scope it holds
 * for, and "Revoke permission rules…" lists every rule as it reads (`allow execute "npm test"`) to forget
 * some. Both edit the data home's one rules file that every window and `acp-threads permissions` share.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { formatRule, parseRule } from "../../core/acp/rule-text";
import { EVERYWHERE, type RememberedRule } from "../../core/model/permission-rule";
import { configuredAgents } from "../agents";
import type { Hub } from "../hub";

const ANY_AGENT = "*";

const readable = (r: RememberedRule) => formatRule({ effect: r.effect, kind: r.kind, pattern: r.key });
const scopeText = (scope: string) => (scope === EVERYWHERE ? "everywhere" : scope);

/** Scripted callers (tests) pass the answers: `{rule, agent?, scope?}`. */
export interface AddRuleArgs {
  rule: string;
  agent?: string;
  scope?: string;
}

export async function addPermissionRule(hub: Hub, args?: AddRuleArgs): Promise<RememberedRule | undefined> {
  const text =
    args?.rule ??
    (await vscode.window.showInputBox({
      title: "Add permission rule",
      prompt:
        'allow | ask | deny, a kind, and a command or path in quotes. A trailing " *" is a command\'s only wildcard',
      placeHolder: 'allow execute "npm run *"   ·   deny edit "**/.env"   ·   ask read "~/.ssh/**"',
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          parseRule(v);
          return undefined;
        } catch (err) {
          return errorMessage(err);
        }
      },
    }));
  if (!text) return undefined;
  const rule = parseRule(text);
  const agent = args ? (args.agent ?? ANY_AGENT) : await pickAgent(hub);
  if (agent === undefined) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const scope = args ? (args.scope ?? EVERYWHERE) : await pickScope(folder);
  if (scope === undefined) return undefined;
  // the engine parses the parts again with the same check (rule-text.ts): the rule saved is the rule shown
  const saved = await hub.engine.call({ op: "permissions.add", ...rule, agentId: agent, scope });
  void vscode.window.showInformationMessage(
    `Added ${readable(saved)} for ${agent === ANY_AGENT ? "every agent" : agent}, ${scopeText(scope)}.`,
  );
  return saved;
}

async function pickAgent(hub: Hub): Promise<string | undefined> {
  const agents = (await configuredAgents(hub.config, hub.registry)).map((a) => ({
    label: a.spec.displayName,
    description: a.spec.id,
    id: a.spec.id,
  }));
  const picked = await vscode.window.showQuickPick([{ label: "Every agent", id: ANY_AGENT }, ...agents], {
    title: "Add permission rule: for which agent?",
    ignoreFocusOut: true,
  });
  return picked?.id;
}

async function pickScope(folder: string | undefined): Promise<string | undefined> {
  const items = [
    ...(folder ? [{ label: "This workspace", description: folder, scope: folder }] : []),
    { label: "Everywhere", description: "every workspace", scope: EVERYWHERE },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: "Add permission rule: where does it hold?",
    ignoreFocusOut: true,
  });
  return picked?.scope;
}

export async function revokePermissions(hub: Hub): Promise<void> {
  let rules: RememberedRule[];
  try {
    rules = (await hub.engine.call({ op: "permissions.list" })).rules;
  } catch (err) {
    // a corrupt or newer rules file is never written over: say which file, keep it
    void vscode.window.showErrorMessage(`Cannot read the permission rules: ${errorMessage(err)}`);
    return;
  }
  if (!rules.length) return void vscode.window.showInformationMessage("No permission rules.");
  const all = { label: `$(trash) Forget all ${rules.length} rule(s)`, ids: rules.map((r) => r.id), alwaysShow: true };
  const items = rules.map((r) => ({
    label: readable(r),
    description: `${r.agentId === ANY_AGENT ? "every agent" : r.agentId} · ${scopeText(r.scope)}`,
    detail: `rule ${r.id}${r.createdAt ? `, since ${r.createdAt}` : ""}`,
    ids: [r.id],
  }));
  const picked = await vscode.window.showQuickPick([all, ...items], {
    title: "Revoke permission rules",
    placeHolder: "Pick the rules to forget (agents will ask again where an allow rule goes)",
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picked?.length) return;
  // all or none: a rule another window or the CLI removed meanwhile is named, and nothing is removed
  let removed: RememberedRule[];
  try {
    removed = await hub.engine.call({ op: "permissions.revoke", ids: [...new Set(picked.flatMap((p) => p.ids))] });
  } catch (err) {
    void vscode.window.showErrorMessage(`Cannot revoke the permission rules: ${errorMessage(err)}`);
    return;
  }
  void vscode.window.showInformationMessage(`Revoked ${removed.length} permission rule(s).`);
}
