import assert from "node:assert/strict";
import { test } from "node:test";
import { ExecThreadRecorder, type ThreadSink } from "../../../../src/core/exec";
import { stampRecord, validateRecord, type RecordInput } from "../../../../src/core/model/records";
import { withRegistry } from "./helpers";

/** A sink that keeps records in memory and checks each against the thread record schema. */
function memorySink() {
  const threads = new Map<string, { records: RecordInput[]; closed: boolean }>();
  const sink: ThreadSink = {
    create(input) {
      const threadId = `t${threads.size + 1}`;
      const thread = { records: [{ kind: "thread_start", threadId, ...input } as RecordInput], closed: false };
      threads.set(threadId, thread);
      const append = (rec: RecordInput) => {
        assert.equal(validateRecord(stampRecord(rec)), undefined, `valid record: ${JSON.stringify(rec).slice(0, 200)}`);
        assert.equal(thread.closed, false);
        thread.records.push(rec);
      };
      return {
        threadId,
        append,
        patch: (patch) => append({ kind: "meta_patch", patch }),
        sync() {},
        close: () => void (thread.closed = true),
      };
    },
  };
  return { sink, threads };
}

test("a run is recorded as an exec thread with its command, output and exit", async () => {
  const { sink, threads } = memorySink();
  await withRegistry(
    async (registry, dir) => {
      const run = registry.start({ command: "sh", args: ["-c", "echo hello; exit 2"], cwd: dir });
      const info = await run.exited;
      assert.equal(info.threadId, "t1");
      const thread = threads.get("t1")!;
      assert.equal(thread.closed, true);
      const [start, ...rest] = thread.records;
      assert.equal(validateRecord(stampRecord(start!)), undefined);
      assert.deepEqual(
        rest.map((r) => r.kind),
        ["exec_output", "exec_exit", "meta_patch"],
      );
      assert.equal((start as { mode: string }).mode, "exec");
      assert.equal((start as { title: string }).title, "sh -c 'echo hello; exit 2'");
      assert.equal((rest[0] as { text: string }).text, "hello\n");
      assert.equal((rest[1] as { exitCode: number }).exitCode, 2);
      assert.deepEqual((rest[2] as { patch: object }).patch, { status: "failed" });
    },
    { recorder: new ExecThreadRecorder(sink) },
  );
});

test("a long run records a bounded head and its tail marked truncated", async () => {
  const { sink, threads } = memorySink();
  const recorder = new ExecThreadRecorder(sink, { headBytes: 1000, tailBytes: 500, flushBytes: 300 });
  await withRegistry(
    async (registry, dir) => {
      const run = registry.start({ command: "sh", args: ["-c", "seq 1 20000; echo LAST"], cwd: dir });
      const info = await run.exited;
      const outputs = threads.get(info.threadId!)!.records.filter((r) => r.kind === "exec_output") as Array<{
        text: string;
        truncated?: boolean;
        bytes: number;
      }>;
      const recordedText = outputs.reduce((n, r) => n + r.text.length, 0);
      assert.ok(recordedText < 1000 + 65536 + 500, `recorded ${recordedText} chars stays bounded`);
      const last = outputs.at(-1)!;
      assert.equal(last.truncated, true);
      assert.ok(last.text.endsWith("20000\nLAST\n"));
      assert.equal(last.bytes, info.bytes);
      assert.ok(outputs[0]!.text.startsWith("1\n2\n3\n"));
    },
    { recorder },
  );
});

test("a killed run's thread ends interrupted with the reason", async () => {
  const { sink, threads } = memorySink();
  await withRegistry(
    async (registry, dir) => {
      const run = registry.start({ command: "sleep", args: ["100"], cwd: dir });
      const info = await registry.kill(run.id, 200);
      const patch = threads.get(info.threadId!)!.records.at(-1) as { patch: { status: string; reason: string } };
      assert.deepEqual(patch.patch, { status: "interrupted", reason: "killed by SIGTERM" });
    },
    { recorder: new ExecThreadRecorder(sink) },
  );
});
