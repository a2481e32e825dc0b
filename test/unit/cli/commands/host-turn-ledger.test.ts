// The thread host tells a turn's end (`turn_ended`) once the session has written the turn's edit-ledger op record
// (#35; the window's ledger views read the host's ledger when they hear of it, hosted-menu's LedgerHost). Before, the
// host told it at the agent's `done`, ahead of core/session.ts's `#ledger.end`, and the window re-read the ledger with a
// backoff for up to 5 s. Real processes: a host with the CLI's run path, the fake agent writing a file per turn.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import type { HostEvent } from "../../../../src/core/host/protocol";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import type { LedgerView } from "../../../../src/core/ledger/ledger-view";
import { nullLogger } from "../../../../src/core/log";
import { fakeRun, withCliHost } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a hosted turn that changed a file is in the ledger on the first read after its turn_ended", () =>
  withCliHost("acp-host-ledger-", async ({ dir, home }) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const ledger = new EditLedger({ home, logger: nullLogger });
    const conn = (await connectHost({ home, client: "test" }))!;
    const events: HostEvent[] = [];
    const reads: Promise<LedgerView>[] = [];
    conn.onPush((m) => {
      if (m.t !== "event") return;
      events.push(m.event);
      // read at once, as the window's ledger views do
      if (m.event.kind === "turn_ended") reads.push(ledger.readAsync(m.event.threadId));
    });
    try {
      await conn.request({ t: "events" });
      const files = ["a.txt", "b.txt", "c.txt"].map((f) => join(ws, f));
      const r = await conn.request({ t: "run", run: fakeRun(ws, { prompts: files.map((f) => `write ${f} hi`) }) });
      const id = r.t === "started" ? r.threadId : "";
      await waitFor(() => events.some((e) => e.kind === "ended" && e.threadId === id), "the run ended");
      assert.equal(reads.length, files.length);
      const seen = (await Promise.all(reads)).map((v) =>
        v.ops.filter((o) => o.type === "turn" && o.summary).map((o) => o.files.map((f) => f.path)),
      );
      assert.deepEqual(
        seen,
        files.map((_, i) => files.slice(0, i + 1).map((f) => [f])),
        "each turn's op record, with its file, on the first read",
      );
    } finally {
      conn.close();
      ledger.dispose();
    }
  }));
