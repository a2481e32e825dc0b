/**
 * `acp-threads rewind THREAD --to N [--both|--code|--conversation] [--prompt TEXT]`: go back to prompt N (a user
 * message, numbered as `threads show` numbers them), as Claude Code's rewind does. --code puts the files the
 * thread changed from that prompt's turn on back to before it (a restore: recorded, undoable with `restore
 * --undo`, refusing files changed since unless --force); --conversation forks the thread before message N
 * (`fork --at N-1`), and runs TEXT (the edited prompt) as the fork's next prompt when --prompt is given; --both
 * (the default) does the two, the restore first (a refused restore creates no fork).
 */
import { AcpThreadsError } from "../../core/errors";
import { localEngine } from "../../core/engine/local";
import { rewindPoint, type RewindMode } from "../../core/handoff/rewind-point";
import { command } from "../command";
import { linkInHost } from "../host-client";
import { EXIT } from "../io";
import { json, threadOf } from "../ledger/common";
import { printPlan } from "./restore";

export const main = command(
  {
    name: "rewind",
    synopsis: "THREAD --to N [--both|--code|--conversation] [--prompt TEXT] [--force] [--dry-run]",
    args: { min: 1, max: 1, name: "THREAD" },
    flags: {
      to: {
        type: "number",
        integer: true,
        min: 1,
        arg: "N",
        help: "the prompt to go back to (a user message, as 'threads show' numbers them)",
      },
      both: { type: "boolean", help: "restore the files and fork the conversation (the default)" },
      code: { type: "boolean", help: "only restore the files to before prompt N; the conversation is unchanged" },
      conversation: { type: "boolean", help: "only fork the conversation before prompt N; the files are untouched" },
      prompt: {
        type: "string",
        arg: "TEXT",
        help: "the edited prompt: run as the fork's next prompt (with the thread's agent)",
      },
      permission: {
        type: "enum",
        values: ["approve-all", "approve-reads", "deny-all"],
        default: "approve-reads",
        help: "with --prompt: how the run answers permission requests (as 'run --permission')",
      },
      force: { type: "boolean", help: "overwrite files that changed after the thread's last change to them" },
      "dry-run": { type: "boolean", help: "print what would be restored and forked; change nothing" },
      format: { type: "enum", values: ["text", "json"], default: "text", help: "output format" },
    },
    notes: `Without --prompt nothing is sent to an agent: continue the fork with 'acp-threads run --thread NEW'.
Undo the files' restore with 'acp-threads restore THREAD --undo'.`,
  },
  async ({ io, flags, args }) => {
    const picked = (["both", "code", "conversation"] as const).filter((m) => flags[m]);
    if (picked.length > 1) throw new AcpThreadsError("usage", "give one of --both, --code and --conversation");
    const mode: RewindMode = picked[0] ?? "both";
    if (flags.to === undefined) throw new AcpThreadsError("usage", "missing --to N (the prompt to go back to)");
    if (mode === "code" && flags.prompt !== undefined)
      throw new AcpThreadsError("usage", "--prompt starts the forked conversation: it does not go with --code");
    const { store, threadId, metadata } = threadOf(io, args[0]!);
    const point = rewindPoint(threadId, store.read(threadId), flags.to);
    const engine = localEngine({ store });
    // planned and applied in the engine (a thread another process writes is not touched: `heldBy`)
    const restore =
      mode === "conversation"
        ? null
        : await engine.call({
            op: "ledger.restore",
            threadId,
            fromTurn: point.turn,
            ...(flags["dry-run"] ? { dryRun: true } : {}),
            ...(flags.force ? { force: true } : {}),
          });
    const plan = restore?.plan ?? null;
    if (restore?.heldBy !== undefined)
      throw new AcpThreadsError(
        "usage",
        `thread ${threadId} is open in process ${restore.heldBy} (an editor or a run); rewind it there, or close its session first`,
      );
    const text = flags.format === "text";
    if (text && plan) printPlan(io, plan, restore?.rels ?? []);
    else if (text && mode !== "conversation")
      io.stdout.write(`no file changed from prompt ${point.message} (turn ${point.turn}) on: nothing to restore\n`);
    const forkAt = mode === "code" ? null : point.forkAt;
    if (flags["dry-run"]) {
      if (flags.format === "json") json(io, { point, mode, plan, forkAt });
      else if (forkAt !== null)
        io.stdout.write(`fork ${threadId} before message ${point.message} (the conversation up to ${forkAt})\n`);
      return EXIT.ok;
    }
    if (restore?.refused)
      throw new AcpThreadsError(restore.refused.code, restore.refused.message, restore.refused.details);
    const restored = restore?.result ?? null;
    if (restored && text) {
      io.stdout.write(
        `restored ${restored.files} file(s); recorded as ${restored.op} (undo: acp-threads restore ${threadId.slice(0, 13)} --undo)\n`,
      );
      for (const n of restored.notes) io.stdout.write(`note: ${n}\n`);
    }
    const fork =
      forkAt === null
        ? null
        : await engine.call({
            op: "fork.write",
            sourceId: threadId,
            at: forkAt,
            allowEmpty: true,
            title: `${metadata.title ?? threadId} (rewound to message ${point.message})`,
          });
    const unlinked = fork && (await linkInHost(io, "rewind", threadId, { forks: [fork.threadId] }, fork.unlinked));
    if (unlinked) io.stderr.write(`acp-threads rewind: note: ${threadId} does not list the fork yet: ${unlinked}\n`);
    if (flags.format === "json")
      json(io, {
        point,
        mode,
        restore: restored ? { op: restored.op, files: restored.files } : null,
        threadId: fork?.threadId ?? null,
        forkedFrom: fork ? { threadId, messageIndex: forkAt } : null,
      });
    else if (fork) io.stdout.write(`forked before message ${point.message} → ${fork.threadId}\n`);
    if (!fork || flags.prompt === undefined) {
      if (fork && text) io.stdout.write(`continue: acp-threads run --thread ${fork.threadId.slice(0, 13)} PROMPT\n`);
      return EXIT.ok;
    }
    const { main: run } = await import("./run");
    return await run({
      ...io,
      argv: ["--thread", fork.threadId, "--format", flags.format, "--permission", flags.permission, flags.prompt],
    });
  },
  "go back to a prompt: restore the files to before it, fork the conversation there, or both",
);
