// A window that reconnects to the same thread host is shown the running terminals again in the background after its
// hello (editor-terminals.ts `offer`), and reads the host's status to end the ones that ended while it was away
// (vscode/host/terminals-gone.ts). A terminal that ended between the status and the offer was listed as running,
// never shown again and its end never sent: it stayed "running" in the window forever. The host now answers a
// client's `status` only after its pending offer, so every terminal the status lists was shown to it and its end
// goes there. Deterministic: the test holds the reconnecting client's offer (the host's `offerGate`) while the run
// ends. Real host (this process), a real exec run (`/bin/sh`).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { viewer } from "../../../fixtures/host/terminal-viewer";
import { waitFor } from "../../../fixtures/spawner/wait";

test("a reconnecting client's status waits for its offer: a terminal that ended meanwhile is not listed", () => {
  let hold: Promise<void> | undefined;
  let release = () => {};
  const offerGate = () => hold ?? Promise.resolve();
  return withCliHost(
    "acp-offer-race-",
    async ({ dir, home }) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      const keeper = await viewer(home, [ws]); // another window, shown the run throughout: it ends it
      const window = await viewer(home, [ws]);
      try {
        const exec = { command: "/bin/sh", args: ["-c", "read line; exit 7"], cwd: ws };
        const r = await keeper.conn.request({ t: "exec_start", exec });
        assert.ok(r.t === "exec_started");
        const { runId } = r.exec;
        await waitFor(() => window.terminals.some((t) => t.term === runId), "the run is shown to the window");
        window.conn.close(); // the window's connection drops; it connects again at once
        hold = new Promise((resolve) => (release = resolve));
        const back = await viewer(home, [ws]); // its offer of the running terminals is held
        const asked = back.conn.request({ t: "status" });
        await keeper.conn.request({ t: "terminal_input", term: runId, data: "the end\n" });
        await waitFor(() => keeper.exits.has(runId), "the run ended (its end told to the clients shown it)");
        assert.equal(keeper.exits.get(runId), 7);
        release();
        const s = await asked;
        assert.ok(s.t === "status");
        const listed = [...(s.status.terminals ?? []), ...(s.status.execs ?? []).map((e) => e.runId)];
        for (const term of listed)
          assert.ok(
            back.terminals.some((t) => t.term === term),
            `the status lists ${term}, which was never shown to this client: its end would never reach it`,
          );
        assert.ok(!listed.includes(runId), "the ended run is not listed: the window ends it");
        assert.ok(!back.terminals.some((t) => t.term === runId), "an ended run is not shown again");
        back.conn.close();
      } finally {
        release();
        keeper.conn.close();
        window.conn.close();
      }
    },
    { offerGate },
  );
});
