/**
 * The platform seam: everything in core that differs between Linux, macOS and Windows asks a `Platform`
 * instead of `process.platform` directly, so each difference is unit-tested on Linux with injected values
 * (`platformOf("win32")` brings `path.win32` along; no Windows machine is needed to test the Windows branch).
 */
import * as nodePath from "node:path";

export interface Platform {
  readonly os: NodeJS.Platform;
  readonly arch: string;
  /** `path.win32` on Windows, `path.posix` elsewhere. */
  readonly path: nodePath.PlatformPath;
  readonly env: NodeJS.ProcessEnv;
}

export const HOST_PLATFORM: Platform = { os: process.platform, arch: process.arch, path: nodePath, env: process.env };

/** A platform description for tests (or for reasoning about another machine's files). */
export function platformOf(os: NodeJS.Platform, env: NodeJS.ProcessEnv = {}, arch = "x64"): Platform {
  return { os, arch, path: os === "win32" ? nodePath.win32 : nodePath.posix, env };
}

export function isWindows(p: Platform = HOST_PLATFORM): boolean {
  return p.os === "win32";
}

/** POSIX process groups, signals and `/bin/sh` exist (everything but Windows). */
export function isPosix(p: Platform = HOST_PLATFORM): boolean {
  return p.os !== "win32";
}
