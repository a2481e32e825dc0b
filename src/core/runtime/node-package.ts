/**
 * What a resolved agent command is, as far as Node goes: the npm package it comes from (node_modules/.bin links
 * into it; an npm `.cmd` shim on Windows names the script), that package's `engines.node`, and whether the
 * command is a Node script (a `.js`/`.mjs`/`.cjs` file or a `#!/usr/bin/env node` shebang) that any Node can run
 * as `<node> <script> <args>`. Every file call is asynchronous: a session's start asks on the extension host's thread.
 */
import { open, readFile, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { HOST_PLATFORM, type Platform } from "../platform/host";
import { npmShimTarget } from "../platform/shell";

export interface NodePackageInfo {
  /** Folder holding the package.json. */
  dir: string;
  name: string | null;
  version: string | null;
  /** `engines.node`, when the package states one. */
  enginesNode: string | null;
}

export interface CommandNodeInfo {
  /** The Node script the command runs (symlinks resolved), or null when it is not one (a native binary...). */
  script: string | null;
  /** The package the command comes from, when found. */
  pkg: NodePackageInfo | null;
}

const MAX_LEVELS = 4;

async function readPackage(dir: string): Promise<NodePackageInfo | null> {
  let pkg: { name?: unknown; version?: unknown; engines?: { node?: unknown } };
  try {
    pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as typeof pkg;
  } catch {
    return null;
  }
  const str = (x: unknown) => (typeof x === "string" ? x : null);
  return { dir, name: str(pkg?.name), version: str(pkg?.version), enginesNode: str(pkg?.engines?.node) };
}

/** The first package.json at or above the file's folder (a few levels: bin scripts sit in bin/, dist/...). */
export async function packageOf(file: string): Promise<NodePackageInfo | null> {
  let dir: string;
  try {
    dir = dirname(await realpath(file));
  } catch {
    return null;
  }
  for (let i = 0; i < MAX_LEVELS; i++, dir = dirname(dir)) {
    const pkg = await readPackage(dir);
    if (pkg) return pkg;
    if (dirname(dir) === dir) break;
  }
  return null;
}

/** The version of the npm package a command comes from, for adapters whose `--version` says nothing. */
export async function packageVersionOf(commandPath: string): Promise<string | null> {
  return (await packageOf((await scriptBehind(commandPath)) ?? commandPath))?.version ?? null;
}

/** The file's first line (at most 256 bytes of it); rejects when it cannot be read. */
export async function firstLineOf(path: string): Promise<string> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(256);
    const { bytesRead } = await fh.read(buf, 0, 256, 0);
    return buf.subarray(0, bytesRead).toString("utf8").split(/\r?\n/, 1)[0] ?? "";
  } finally {
    await fh.close();
  }
}

/** The script an npm `.cmd` shim runs (Windows), else the command itself. */
async function scriptBehind(command: string, p: Platform = HOST_PLATFORM): Promise<string | null> {
  if (!/\.(cmd|bat)$/i.test(command)) return null;
  try {
    return npmShimTarget(command, await readFile(command, "utf8"), p) ?? null;
  } catch {
    return null;
  }
}

/** True for `#!/usr/bin/env node`, `#!/usr/bin/env -S node --flag`, `#!/usr/local/bin/node`. */
export function isNodeShebang(firstLine: string): boolean {
  const m = /^#!\s*(\S+)(.*)$/.exec(firstLine);
  if (!m) return false;
  const words = [m[1]!.split("/").pop()!, ...m[2]!.trim().split(/\s+/)];
  const prog = words[0] === "env" ? words.slice(1).find((w) => !w.startsWith("-")) : words[0];
  return prog === "node" || prog === "nodejs";
}

/** Classifies a resolved (absolute) command. */
export async function commandNodeInfo(command: string, p: Platform = HOST_PLATFORM): Promise<CommandNodeInfo> {
  let file = (await scriptBehind(command, p)) ?? command;
  try {
    file = await realpath(file);
  } catch {
    return { script: null, pkg: null };
  }
  let script: string | null = null;
  if (/\.[cm]?js$/i.test(file)) script = file;
  else {
    try {
      if (isNodeShebang(await firstLineOf(file))) script = file;
    } catch {
      // unreadable: not ours to run
    }
  }
  return { script, pkg: await packageOf(file) };
}
