// The Sessions view's context menu as package.json contributes it: which rows offer a command.
import * as vscode from "vscode";
import { EXTENSION_ID } from "./helpers";

interface PackageJson {
  contributes: { menus: Record<string, { command: string; when: string }[]> };
}

/** Whether the Sessions view's context menu offers `command` on a row of this contextValue (package.json). */
export function offeredOn(command: string): (contextValue: string | undefined) => boolean {
  const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as PackageJson).contributes.menus;
  const entry = menus["view/item/context"].find((m) => m.command === command);
  if (!entry) return () => false;
  const when = /viewItem =~ \/(.*)\/$/.exec(entry.when)?.[1];
  const exact = /viewItem == (\S+)/.exec(entry.when)?.[1];
  return (contextValue) => (when ? new RegExp(when).test(contextValue ?? "") : exact === contextValue);
}
