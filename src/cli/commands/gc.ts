/**
 * `acp-threads gc [--dry-run] [--trash-days N] [--traffic-max-mb N] [--format text|json]`: removes what outlives its
 * thread (traffic, ledger files and blobs, steering requests), the trash past its age, traffic over its cap, and rotates the audit
 * log; prints what it frees (see src/core/retention/gc.ts).
 */
import { localEngine } from "../../core/engine/local";
import type { EngineReplies } from "../../core/engine/requests";
import { formatBytes } from "../../core/retention/bytes";
import { GC_DEFAULTS } from "../../core/retention/gc-defaults";
import { readHomeSettings } from "../../core/store/home-settings";
import { resolveHome } from "../../core/store/paths";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";

const MB = 1024 * 1024;

export const main = command(
  {
    name: "gc",
    synopsis: "[--dry-run] [--trash-days N] [--traffic-max-mb N] [--format text|json]",
    flags: {
      "dry-run": { type: "boolean", help: "print what would be freed, remove nothing" },
      "trash-days": {
        type: "number",
        min: 0,
        arg: "N",
        help: `purge threads deleted more than N days ago (default ${GC_DEFAULTS.trashDays})`,
      },
      "traffic-max-mb": {
        type: "number",
        min: 0,
        arg: "N",
        help: `cap on all protocol traffic files, oldest removed first (default: the editor's acpThreads.traffic.maxTotalMB, else ${GC_DEFAULTS.trafficMaxBytes / MB}; 0 = no cap)`,
      },
      format: FORMAT,
    },
    notes: `Removed: traffic and ledger files of threads that are gone, threads in the trash past the age, traffic over
the cap (never a thread a live session is writing), ledger blobs no ledger refers to (older than two days),
steering requests to threads no process runs any more, and audit.jsonl is rotated past 8 MB. Threads themselves are never touched outside the trash.`,
  },
  async ({ io, flags }) => {
    const home = resolveHome(io.env);
    const shared = readHomeSettings(home).trafficMaxTotalMB;
    const trafficMb = flags["traffic-max-mb"] ?? shared;
    const dry = flags["dry-run"] === true;
    const gc = await localEngine({ home }).call({
      op: "retention.gc",
      ...(flags["trash-days"] !== undefined ? { trashDays: flags["trash-days"] } : {}),
      ...(trafficMb !== undefined ? { trafficMaxBytes: Math.round(trafficMb * MB) } : {}),
      dryRun: dry,
    });
    const plan = { items: gc.items, bytes: gc.planned };
    const done = { bytes: gc.bytes, failed: gc.failed };
    if (flags.format === "json") {
      io.stdout.write(
        JSON.stringify(
          { home, dryRun: dry, bytes: dry ? plan.bytes : done.bytes, items: plan.items, failed: done.failed },
          null,
          2,
        ) + "\n",
      );
      return done.failed.length ? EXIT.error : EXIT.ok;
    }
    for (const item of plan.items) io.stdout.write(line(item));
    for (const f of done.failed) io.stderr.write(`acp-threads gc: could not remove ${f.path}: ${f.error}\n`);
    const total = formatBytes(dry ? plan.bytes : done.bytes);
    io.stdout.write(
      plan.items.length === 0
        ? "nothing to collect\n"
        : dry
          ? `would free ${total} (${plan.items.length} items; run without --dry-run to remove them)\n`
          : `freed ${total} (${plan.items.length - done.failed.length} items)\n`,
    );
    return done.failed.length ? EXIT.error : EXIT.ok;
  },
);

function line(i: EngineReplies["retention.gc"]["items"][number]): string {
  return `${i.action === "rotate" ? "rotate" : "remove"}  ${formatBytes(i.bytes).padStart(9)}  ${i.category.padEnd(7)}  ${i.path}  (${i.reason})\n`;
}
