/**
 * The egress allow-list through the real engine (#34), with the hostile agent's `net` scenario: it connects
 * straight to a server on this machine's 127.0.0.1 and GETs two URLs through $HTTP_PROXY. Sandboxed with one
 * allowed host, the direct connection finds no server (the sandbox's loopback is its own), the listed host answers
 * through the proxy and the other gets 403 and a "blocked" note; a terminal the agent starts goes out the same way.
 * Unsandboxed (the control), the same agent reaches everything. Linux with a working bubblewrap only.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox } from "../../../../src/core/sandbox/plan";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import {
  egressServers as servers,
  hostileRuntime as hostile,
  hostileTurn as turn,
  noBwrap,
  sandboxWorld,
} from "../../../fixtures/sandbox-world";

const BOUND = { timeout: 60_000 };
const skip = noBwrap;

test(
  "hostile: with allowed hosts, a direct connection fails, an unlisted host gets 403 and a note, the listed one works",
  { ...BOUND, skip },
  () =>
    withTmpDir("sbx-egress-", (dir) =>
      servers(async (secretPort, webPort) => {
        const { home, ws, tmp } = sandboxWorld(dir);
        const allowed = `http://127.0.0.1:${webPort}/ok`;
        const denied = `http://localhost:${webPort}/no`;
        const policy = buildSandboxPolicy({
          roots: [ws],
          agentId: "hostile",
          home,
          env: {},
          tmpDir: tmp,
          settings: { allowedHosts: [`127.0.0.1:${webPort}`] },
        });
        const plan = await prepareSandbox(policy);
        const blocked: string[] = [];
        plan.proxy!.onBlocked((target) => blocked.push(target));
        const rt = hostile(ws, home, plan);
        try {
          const said = await turn(rt, `net ${secretPort} ${allowed} ${denied}`);
          assert.match(said, /^net: direct=(ECONNREFUSED|ENETUNREACH) /, said);
          assert.match(said, new RegExp(` ${allowed}=200 ${denied}=403$`), said);
          assert.deepEqual(blocked, [`localhost:${webPort}`]);
          const term = await turn(
            rt,
            `bait curl -- sh -c 'curl -s -o /dev/null -w "%{http_code}," ${allowed}; curl -s -o /dev/null -w "%{http_code}" ${denied}'`,
          );
          assert.match(term, /^ran: 0\|200,403$/, `a terminal goes out through the proxy too: ${term}`);
        } finally {
          await rt.close();
          await closeSandbox(plan);
        }
        assert.equal(existsSync(plan.egress?.kind === "socket" ? plan.egress.dir : "?"), false, "the folder is gone");
      }),
    ),
);

test("the control, unsandboxed: the same agent reaches the server and both URLs", { ...BOUND, skip }, () =>
  withTmpDir("sbx-egress-", (dir) =>
    servers(async (secretPort, webPort) => {
      const { home, ws } = sandboxWorld(dir);
      const rt = hostile(ws, home);
      try {
        const a = `http://127.0.0.1:${webPort}/ok`;
        const b = `http://localhost:${webPort}/no`;
        assert.equal(await turn(rt, `net ${secretPort} ${a} ${b}`), `net: direct=secret ${a}=200 ${b}=200`);
      } finally {
        await rt.close();
      }
    }),
  ),
);
