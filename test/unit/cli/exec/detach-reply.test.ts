// `exec --detach` (cli/exec/detach.ts) when the host answers `exec_start` with a reply of another type (a protocol
// bug, or another program at the host's socket): the CLI says so on stderr and exits 1. Before, it exited 1 and
// printed nothing. A real socket at the host's place, answered by a stand-in that says hello and then `ok`.
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { launchDetached } from "../../../../src/cli/exec/detach";
import { EXIT } from "../../../../src/cli/io";
import { hostPlace, preparePlace } from "../../../../src/core/host/door";
import { HOST_PROTOCOL } from "../../../../src/core/host/protocol";
import { readLines, send } from "../../../../src/core/host/wire";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { capturedIO } from "../in-process";

test("exec --detach: a reply of the wrong type to exec_start is said on stderr (exit 1), not a silent exit", () =>
  withTmpDir("acp-detach-reply-", async (dir) => {
    const home = join(dir, "home");
    const place = hostPlace(home);
    preparePlace(home, place);
    const socks = new Set<Socket>();
    const server = createServer((sock) => {
      socks.add(sock);
      readLines(sock, (m) => {
        const { t, id } = m as { t: string; id: number };
        if (t === "hello") send(sock, { t: "hello", id, protocol: HOST_PROTOCOL, version: place.version, pid: 1 });
        else send(sock, { t: "ok", id });
      });
    });
    await new Promise<void>((resolve) => server.listen(place.socket, resolve));
    try {
      const c = capturedIO({ ACP_THREADS_HOME: home }, dir);
      const code = await launchDetached(c.io, { command: "true", args: [], cwd: dir }, false);
      assert.equal(code, EXIT.error);
      assert.equal(c.out(), "", "no run id");
      assert.match(c.err(), /^acp-threads exec: the thread host answered 'ok' to exec_start, not exec_started/m);
    } finally {
      for (const s of socks) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }));
