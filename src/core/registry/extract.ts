/**
 * Unpacks a downloaded archive into a folder: tarballs through the system `tar` (the platform seam below),
 * .zip through ./unzip, and a raw binary copied as is under the name its `cmd` gives.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { safeEntryPath, unzipFile } from "./unzip";

export type ArchiveKind = "tar.gz" | "tar.bz2" | "zip" | "raw";

export function archiveKind(url: string): ArchiveKind {
  const path = new URL(url).pathname.toLowerCase();
  if (path.endsWith(".tar.gz") || path.endsWith(".tgz")) return "tar.gz";
  if (path.endsWith(".tar.bz2") || path.endsWith(".tbz2")) return "tar.bz2";
  if (path.endsWith(".zip")) return "zip";
  return "raw";
}

/** The platform seam: how this machine runs `tar` (Windows 10+ ships bsdtar as tar.exe). */
export function tarCommand(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? "tar.exe" : "tar";
}

export function extractArchive(file: string, kind: ArchiveKind, dest: string, cmd: string): void {
  mkdirSync(dest, { recursive: true });
  switch (kind) {
    case "tar.gz":
    case "tar.bz2":
      try {
        execFileSync(tarCommand(), [kind === "tar.gz" ? "-xzf" : "-xjf", file, "-C", dest], {
          stdio: ["ignore", "ignore", "pipe"],
        });
      } catch (err) {
        const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
        throw new Error(`could not extract the archive with ${tarCommand()}: ${stderr || (err as Error).message}`, {
          cause: err,
        });
      }
      return;
    case "zip":
      unzipFile(file, dest);
      return;
    case "raw": {
      const target = safeEntryPath(dest, cmd.replace(/^\.\//, "") || basename(file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(file, target);
      return;
    }
  }
}
