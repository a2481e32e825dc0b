/**
 * What `acp-threads attach` shows: the thread's records from a cursor, printed as `run` prints its events, a
 * record never printed twice (a batch that overlaps what was shown is cut at the cursor), and the host's
 * permission questions, asked on a terminal (the first answer from any client wins; the others are told).
 */
import { createInterface } from "node:readline/promises";
import type { PendingQuestion } from "../core/host/protocol";
import type { ThreadRecord } from "../core/model/records";
import { recordsToEvents } from "../core/thread/record-events";
import type { CliIO } from "./io";
import type { TurnOutput } from "./output/turn-output";
import { agentLine } from "./terminal-text";

export class AttachView {
  /** The index of the next record not shown yet. */
  cursor: number;
  #turn = 0;
  /** A turn ended since the view started (records with kind turn_end). */
  turnsEnded = 0;
  #asking: AbortController | undefined;

  constructor(
    private readonly io: CliIO,
    private readonly output: TurnOutput,
    from: number,
  ) {
    this.cursor = from;
  }

  /** Prints the records of a batch that starts at `from` and were not shown. */
  show(from: number, records: ThreadRecord[]): void {
    if (from > this.cursor) return; // a gap: the caller reattaches from the cursor
    const fresh = records.slice(this.cursor - from);
    if (!fresh.length) return;
    this.cursor += fresh.length;
    for (const r of fresh) if (r.kind === "user_message") this.#turn++;
    for (const e of recordsToEvents(fresh)) this.output.event(e, this.#turn);
    this.turnsEnded += fresh.filter((r) => r.kind === "turn_end").length;
  }

  /** Asks on a terminal; without one, says how to answer from any shell. Resolves with the choice (or null). */
  async ask(q: PendingQuestion): Promise<string | null> {
    const { stderr, stdin } = this.io;
    stderr.write(`acp-threads attach: the agent asks permission: ${agentLine(q.title)}\n`);
    if ((stdin as { isTTY?: boolean }).isTTY !== true) {
      stderr.write(
        `  answer from any shell: acp-threads answer ${q.threadId} --option allow|reject|OPTION_ID (${q.options.map((o) => agentLine(o.optionId)).join(", ")})\n`,
      );
      return null;
    }
    q.options.forEach((o, i) => stderr.write(`  ${i + 1}. ${agentLine(o.name)} (${o.kind})\n`));
    this.#asking = new AbortController();
    const rl = createInterface({ input: stdin, output: stderr });
    try {
      for (;;) {
        const line = (await rl.question("choose a number: ", { signal: this.#asking.signal })).trim();
        const picked = q.options[Number(line) - 1];
        if (picked) return picked.optionId;
      }
    } catch {
      return null; // answered elsewhere (settled) or interrupted
    } finally {
      rl.close();
      this.#asking = undefined;
    }
  }

  /** Someone answered: the prompt here closes, and says who. */
  settled(optionId: string | null, by: string): void {
    this.#asking?.abort();
    this.io.stderr.write(
      `acp-threads attach: ${optionId ? `answered ${agentLine(optionId)}` : "no answer"} by ${agentLine(by)}\n`,
    );
  }
}
