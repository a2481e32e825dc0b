// Exec mode against the real agent CLIs and the scripted model: `acp-threads exec -- <preset> ...` runs codex exec,
// claude --print, gemini -p and opencode run as tracked processes; each completes a task that writes a file,
// shows up in `ps`, is recorded as a thread, and (codex, claude, gemini) has its own transcript found.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, jsonLines, PROMPT, runCli, setUp, skipUnlessInstalled, type Interop } from "./harness";

interface Case {
  id: AgentId;
  /** Words after `exec --`: a preset id first, so preset expansion is exercised. */
  command: string[];
  extraFlags?: string[];
  transcriptUnder?: (t: Interop) => string;
}

const CASES: Case[] = [
  // Preset: codex exec --sandbox workspace-write; the fixture workspace is no git repo.
  {
    id: "codex-exec",
    command: ["codex", "--skip-git-repo-check", PROMPT],
    transcriptUnder: (t) => t.agent.transcripts.codexSessions,
  },
  // Preset: claude --print --permission-mode <mode>; bypassPermissions so the scripted `echo hi` may run.
  {
    id: "claude-exec",
    command: ["claude", PROMPT],
    extraFlags: ["--permission-mode", "bypassPermissions"],
    transcriptUnder: (t) => t.agent.transcripts.claudeProject,
  },
  // gemini -p needs yolo to run tools without asking; `-p` given, so the preset adds nothing.
  {
    id: "gemini-exec",
    command: ["gemini", "--approval-mode", "yolo", "-p", PROMPT],
    transcriptUnder: (t) => t.agent.transcripts.geminiTmp,
  },
  { id: "opencode-exec", command: ["opencode", PROMPT] },
];

for (const c of CASES) {
  test(
    `${c.id} completes a file-writing task through acp-threads exec`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(c.id);
      try {
        // Preset ids resolve on PATH, like a user's install.
        t.agent.env.PATH = `${dirname(t.agent.command)}:${t.agent.env.PATH ?? ""}`;
        const r = await runCli(t, [
          "exec",
          "--format",
          "json",
          "--timeout",
          "100",
          "--cwd",
          t.workspace,
          ...(c.extraFlags ?? []),
          "--",
          ...c.command,
        ]);
        const lines = jsonLines(r.stdout);
        const exit = lines.at(-1) as {
          type: string;
          run: {
            id: string;
            status: string;
            exitCode: number;
            presetId: string;
            threadId?: string;
            transcriptPath?: string;
          };
        };
        assert.equal(exit?.type, "exit", `stdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`);
        assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-2000)}`);
        assert.equal(exit.run.status, "exited");
        assert.equal(exit.run.presetId, c.command[0]);
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
        const output = lines
          .filter((l) => l.type === "output")
          .map((l) => l.text)
          .join("");
        assert.ok(output.length > 0, "the CLI's output was streamed");

        const ps = JSON.parse((await runCli(t, ["ps", "--format", "json"])).stdout) as Array<{
          id: string;
          status: string;
        }>;
        assert.deepEqual(
          ps.map((p) => [p.id, p.status]),
          [[exit.run.id, "exited"]],
        );
        const logs = await runCli(t, ["logs", exit.run.id]);
        assert.equal(logs.stdout, output);

        assert.ok(exit.run.threadId, "the run was recorded as a thread");
        const thread = readFileSync(join(t.dataHome, "threads", `${exit.run.threadId}.jsonl`), "utf8");
        assert.match(thread, /"kind":"exec_exit","exitCode":0/);

        if (c.transcriptUnder) {
          const root = c.transcriptUnder(t);
          assert.ok(
            exit.run.transcriptPath,
            `a transcript was found (files under ${root}: ${existsSync(root) ? readdirSync(root, { recursive: true }).join(", ") : "none"})`,
          );
          assert.ok(exit.run.transcriptPath!.startsWith(root), `${exit.run.transcriptPath} is under ${root}`);
          const patches = thread
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as { kind: string; patch?: { transcriptPath?: string } });
          assert.ok(
            patches.some((p) => p.kind === "meta_patch" && p.patch?.transcriptPath === exit.run.transcriptPath),
            "the thread records the transcript path",
          );
        }
      } finally {
        await t.cleanup();
      }
    },
  );
}
