// A thread records the folders its session was allowed to write (#35), and `acp-threads restore` uses them: an agent
// in a multi-root window (a hosted run with the window's other folder in `roots`, as the editor sends it) writes into
// that second folder, and the restore of that turn puts the file back. Before the thread recorded its folders, the
// restore was refused as writing outside the thread's folders. Real processes: the CLI's run path in a thread host,
// the stdio fake agent writing through fs/write_text_file.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as restore } from "../../../../src/cli/commands/restore";
import { main as threads } from "../../../../src/cli/commands/threads";
import { connectHost } from "../../../../src/core/host/client";
import type { HostEvent } from "../../../../src/core/host/protocol";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../in-process";

test("a turn that wrote into the window's second folder is restored by `acp-threads restore`", () =>
  withCliHost("acp-restore-multiroot-", async ({ dir, home }) => {
    const [ws, other] = ["ws", "other"].map((f) => join(dir, f));
    mkdirSync(ws);
    mkdirSync(other);
    const file = join(other, "x.txt");
    writeFileSync(file, "x0\n");
    // the window's folders, as its hello says them; the run reaches the second (run-roots.ts)
    const conn = await connectHost({ home, client: "test", serves: { fs: false, roots: [ws, other] } });
    assert.ok(conn);
    const events: HostEvent[] = [];
    conn.onPush((m) => m.t === "event" && events.push(m.event));
    let threadId = "";
    try {
      await conn.request({ t: "events" });
      const r = await conn.request({ t: "run", run: fakeRun(ws, { roots: [other], prompts: [`write ${file} x1`] }) });
      assert.equal(r.t, "started", JSON.stringify(r));
      threadId = r.t === "started" ? r.threadId : "";
      await waitFor(() => events.some((e) => e.kind === "ended" && e.threadId === threadId), "the run ended");
    } finally {
      conn.close();
    }
    assert.equal(readFileSync(file, "utf8"), "x1", "the agent wrote into the second folder");
    const metadata = new ThreadStore(home).readMetadata(threadId);
    // (each with its real path too, where a link leads to it: none here but on a system whose temp folder is a link)
    const folders = [...new Set([ws, realpathSync(ws), other, realpathSync(other)])];
    assert.deepEqual(metadata.folders, folders, "the session's folders, recorded at its start");
    const shown = await runCommand(threads, ["show", threadId], { home, cwd: ws });
    assert.equal(shown.code, 0, shown.err);
    assert.ok(shown.out.includes(`\nfolders ${folders.join(", ")}\n`), shown.out);
    const restored = await runCommand(restore, [threadId, "--turn", "1"], { home, cwd: ws });
    assert.equal(restored.code, 0, restored.err);
    assert.equal(readFileSync(file, "utf8"), "x0\n", "the file in the second folder is back");
  }));
