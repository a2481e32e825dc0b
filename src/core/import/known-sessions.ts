/**
 * Which of an agent's sessions we already have: every thread's `thread_start` header (its first line, not the
 * whole file) names its agent and agent session. One pass over the threads folder, a few files at a time, no
 * synchronous file call (the editor runs it on the extension host).
 */
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { AgentImportOrigin } from "../model/records";
import { parseRecord } from "../model/records";
import { isThreadId } from "../model/thread-id";

export interface KnownSession {
  threadId: string;
  /** Set when the thread was imported (not started here): what the import recorded. */
  imported?: AgentImportOrigin;
}

const HEADER_CHUNK = 16 * 1024;
const PARALLEL = 16;

/** The first line of a thread file, parsed (undefined when it is not a whole record). */
async function readHeader(path: string): Promise<Record<string, unknown> | undefined> {
  const fh = await open(path, "r");
  try {
    const chunks: Buffer[] = [];
    for (let pos = 0; ;) {
      const buf = Buffer.allocUnsafe(HEADER_CHUNK);
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return undefined;
      const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(buf.subarray(0, nl >= 0 ? nl : bytesRead));
      if (nl >= 0) {
        const parsed = parseRecord(Buffer.concat(chunks).toString("utf8"));
        return parsed.ok && parsed.record.kind === "thread_start" ? (parsed.record as never) : undefined;
      }
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

/** Agent session id → the thread that holds it, for the threads of `agentId` in `threadsDir`. */
export async function knownSessions(threadsDir: string, agentId: string): Promise<Map<string, KnownSession>> {
  const names = await readdir(threadsDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [] as string[];
    throw err;
  });
  const ids = names.filter((f) => f.endsWith(".jsonl") && isThreadId(f.slice(0, -6))).map((f) => f.slice(0, -6));
  const known = new Map<string, KnownSession>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const threadId = ids[next++]!;
      const start = await readHeader(join(threadsDir, `${threadId}.jsonl`)).catch(() => undefined);
      if (!start || (start.agent as { id?: unknown } | undefined)?.id !== agentId) continue;
      const sessionId = start.agentSessionId;
      if (typeof sessionId !== "string") continue;
      const origin = start.origin as AgentImportOrigin | undefined;
      const imported = origin?.kind === "agent-import" ? origin : undefined;
      // the oldest thread of a session wins (ids are time-ordered): an import never makes a second one
      const had = known.get(sessionId);
      if (!had || had.threadId > threadId) known.set(sessionId, { threadId, ...(imported ? { imported } : {}) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  return known;
}
