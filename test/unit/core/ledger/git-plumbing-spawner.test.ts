/**
 * The ledger's git calls (src/core/ledger/git-plumbing.ts) through the spawner and directly, on the same real
 * repository, in the same test (#24): the results are identical (paths with spaces, non-ASCII and a rename; binary
 * blob bytes; a missing id; git's error), and the calls did go through the spawner. Also the output limit.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BlobReader, indexEntries, repoOf, worktreeChanges } from "../../../../src/core/ledger/git-plumbing";
import { setTerminalLauncher, type LaunchSpec } from "../../../../src/core/platform/launcher";
import {
  OUTPUT_LIMIT_CODE,
  runCommand,
  setCommandRunner,
  type RunRequest,
} from "../../../../src/core/platform/run-to-end";
import { SpawnerLauncher } from "../../../../src/core/platform/spawner-client";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const SPAWNER_JS = join(repoRoot(), "dist", "spawner.js");
const posix = process.platform !== "win32";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" });

const BINARY = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) & 0xff));

function seed(ws: string): void {
  git(ws, "init", "-q");
  mkdirSync(join(ws, "src/sub dir"), { recursive: true });
  writeFileSync(join(ws, ".gitignore"), "*.log\n");
  writeFileSync(join(ws, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(join(ws, "src/sub dir/ünï cødé.txt"), "héllo\n");
  writeFileSync(join(ws, "old-name.md"), "# moved\n");
  writeFileSync(join(ws, "blob.bin"), BINARY);
  git(ws, "add", "-A");
  git(ws, "commit", "-q", "-m", "seed");
  git(ws, "mv", "old-name.md", "new name.md");
  writeFileSync(join(ws, "src/a.ts"), "export const a = 2;\n");
  writeFileSync(join(ws, "src/sub dir/untracked ü.txt"), "new\n");
  writeFileSync(join(ws, "debug.log"), "ignored\n");
}

interface Facts {
  repo: unknown;
  subRepo: unknown;
  notRepo: unknown;
  index: unknown;
  subIndex: unknown;
  changes: unknown;
  blobs: Map<string, Buffer>;
  error: string;
}

async function facts(ws: string, outside: string): Promise<Facts> {
  const index = await indexEntries(ws);
  const reader = new BlobReader(ws);
  try {
    const blobs = await reader.read([...index.map((e) => e.id), "0".repeat(40)]);
    return {
      repo: await repoOf(ws),
      subRepo: await repoOf(join(ws, "src")),
      notRepo: await repoOf(outside),
      index,
      subIndex: await indexEntries(join(ws, "src/sub dir")),
      changes: await worktreeChanges(ws),
      blobs,
      error: await indexEntries(outside).then(
        () => "no error",
        (e: Error) => e.message,
      ),
    };
  } finally {
    reader.dispose();
  }
}

test("the ledger's git calls give the same results through the spawner as directly", { skip: !posix }, () =>
  withTmpDir("acp-plumbing-", async (ws) =>
    withTmpDir("acp-plumbing-out-", async (outside) => {
      seed(ws);
      const direct = await facts(ws, outside);
      const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
      const ran: string[] = [];
      const launched: string[] = [];
      const restoreRunner = setCommandRunner((req: RunRequest) => {
        ran.push(req.args.join(" "));
        return spawner.run(req);
      });
      const restoreLauncher = setTerminalLauncher({
        launch: (spec: LaunchSpec) => {
          launched.push([spec.file, ...spec.args].join(" "));
          return spawner.launch(spec);
        },
      });
      let through: Facts;
      try {
        through = await facts(ws, outside);
      } finally {
        restoreLauncher();
        restoreRunner();
        spawner.dispose();
      }
      assert.ok(spawner.spawnerPid! > 0, "the spawner ran");
      assert.ok(spawner.alive, "the spawner did not fall back to the direct path");
      assert.ok(ran.some((a) => a.includes("ls-files")) && ran.some((a) => a.includes("status")), ran.join("\n"));
      assert.deepEqual(launched, ["git cat-file --batch"]);

      assert.deepEqual(through, direct);
      // …and the direct results are the repository's facts, so the comparison is not of two empty answers
      const index = direct.index as { path: string; id: string }[];
      assert.deepEqual(index.map((e) => e.path).sort(), [
        ".gitignore",
        "blob.bin",
        "new name.md",
        "src/a.ts",
        "src/sub dir/ünï cødé.txt",
      ]);
      assert.deepEqual(direct.changes, {
        modified: ["new name.md", "src/a.ts"],
        untracked: ["src/sub dir/untracked ü.txt"],
      });
      assert.deepEqual(direct.blobs.get(index.find((e) => e.path === "blob.bin")!.id), BINARY);
      assert.equal(direct.blobs.size, index.length, "the missing id is left out");
      assert.equal((direct.repo as { top: string }).top, ws);
      assert.equal(direct.notRepo, undefined);
      assert.match(direct.error, /^git ls-files failed: fatal: not a git repository/);
    }),
  ),
);

test(
  "an output past the limit ends the command with a clear error, through the spawner and directly",
  {
    skip: !posix,
  },
  async () => {
    const req: RunRequest = {
      file: "/bin/sh",
      args: ["-c", "head -c 300000 /dev/zero; sleep 30"],
      cwd: "/",
      maxBytes: 100_000,
    };
    const direct = await runCommand(req);
    const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
    let through;
    try {
      through = await spawner.run(req);
    } finally {
      spawner.dispose();
    }
    for (const r of [direct, through]) {
      assert.equal(r.error?.code, OUTPUT_LIMIT_CODE);
      assert.equal(r.error?.message, "/bin/sh: output exceeds 100000 bytes");
      assert.equal(r.stdout.length, 100_000);
      assert.equal(r.signal, "SIGKILL", "killed at once, not after the sleep");
    }
  },
);
