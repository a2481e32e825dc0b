/**
 * `acp-threads logs ID [--follow] [--head N | --tail N]`: a run's kept output (first 64 KiB + last 1 MiB), from
 * any process. `--head`/`--tail` count lines. Dropped middle output is marked on stderr so stdout stays the
 * program's bytes. `--follow` keeps printing until the run ends.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../../core/errors";
import type { ExecRegistry, OutputSlice } from "../../core/exec";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { formatBytes, openRegistry } from "../exec/context";

const SPEC = {
  name: "logs",
  synopsis: "ID [--follow] [--head N | --tail N]",
  args: { min: 1, max: 1, name: "ID" },
  flags: {
    follow: { type: "boolean", help: "keep printing until the run ends" },
    head: { type: "number", integer: true, min: 0, arg: "N", help: "only the first N lines" },
    tail: { type: "number", integer: true, min: 0, arg: "N", help: "only the last N lines" },
  },
} as const;
const FOLLOW_POLL_MS = 200;
const READ_CHUNK_BYTES = 256 * 1024;

export const main = command(SPEC, async ({ io, flags, args }) => {
  const { head, tail } = flags;
  if (head !== undefined && tail !== undefined) throw new AcpThreadsError("usage", "use --head or --tail, not both");
  const reg = openRegistry(io);
  try {
    const id = reg.resolve(args[0]!).id;
    const { text, next } = readKept(reg, id, (s) => gapNote(io, s));
    io.stdout.write(head !== undefined ? firstLines(text, head) : tail !== undefined ? lastLines(text, tail) : text);
    if (!flags.follow) return EXIT.ok;
    let cursor = next;
    while (!io.signal.aborted) {
      const slice = reg.poll(id, cursor, READ_CHUNK_BYTES);
      gapNote(io, slice);
      if (slice.text) io.stdout.write(slice.text);
      cursor = slice.next;
      if (slice.run.status !== "running" && cursor >= slice.total) return EXIT.ok;
      if (slice.next === slice.start) await sleep(FOLLOW_POLL_MS, undefined, { signal: io.signal }).catch(() => {});
    }
    return EXIT.interrupted;
  } finally {
    reg.dispose();
  }
});

/** All kept output from the start, with a callback at each dropped range. */
function readKept(
  registry: ExecRegistry,
  id: string,
  onGap: (slice: OutputSlice) => void,
): { text: string; next: number } {
  let cursor = 0;
  let text = "";
  for (;;) {
    const slice = registry.poll(id, cursor, READ_CHUNK_BYTES);
    if (slice.gap) onGap(slice);
    text += slice.text;
    if (slice.next === cursor || slice.next >= slice.total) return { text, next: slice.next };
    cursor = slice.next;
  }
}

function gapNote(io: CliIO, slice: OutputSlice): void {
  if (slice.gap)
    io.stderr.write(`\n[acp-threads: ${formatBytes(slice.gap.to - slice.gap.from)} of output dropped here]\n`);
}

function firstLines(text: string, n: number): string {
  let end = 0;
  for (let i = 0; i < n; i++) {
    const nl = text.indexOf("\n", end);
    if (nl === -1) return text;
    end = nl + 1;
  }
  return text.slice(0, end);
}

function lastLines(text: string, n: number): string {
  if (n === 0) return "";
  let start = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let i = 0; i < n; i++) {
    const nl = text.lastIndexOf("\n", start - 1);
    if (nl === -1) return text;
    start = nl;
  }
  return text.slice(start + 1);
}
