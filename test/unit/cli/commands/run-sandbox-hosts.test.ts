/**
 * `--sandbox-hosts` through the real CLI (#34): `run` with the hostile agent reaches the listed host through the
 * egress proxy, not the unlisted one (noted on stderr, once) nor a server on this machine's loopback; `exec` runs a
 * program behind the same proxy; a bad entry is a usage error before anything starts. The temp folder is the
 * test's own (TMPDIR): the proxy's folder is made there and gone when the command returns.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { runCli } from "../../../fixtures/cli/spawn-cli";
import { egressServers as servers, HOSTILE_AGENT, noBwrap, sandboxWorld } from "../../../fixtures/sandbox-world";

const HOSTILE = [HOSTILE_AGENT.command, ...HOSTILE_AGENT.args].join(" ");
const skip = noBwrap;

function world(dir: string) {
  const { home, ws, tmp } = sandboxWorld(dir);
  const data = join(dir, "data");
  mkdirSync(data);
  return { home, ws, tmp, data, env: { HOME: home, TMPDIR: tmp } };
}

test(
  "run --sandbox-hosts: the listed host answers, the unlisted one is 403 and noted once, no direct way out",
  { skip },
  () =>
    withTmpDir("sbx-hosts-", (dir) =>
      servers(async (secret, web) => {
        const w = world(dir);
        const ok = `http://127.0.0.1:${web}/ok`;
        const no = `http://localhost:${web}/no`;
        const r = await runCli(
          [
            "run",
            "--sandbox-hosts",
            `127.0.0.1:${web},api.example.com`,
            "--agent",
            HOSTILE,
            `net ${secret} ${ok} ${no} ${no}`,
          ],
          { home: w.data, cwd: w.ws, env: w.env },
        );
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`net: direct=(ECONNREFUSED|ENETUNREACH) ${ok}=200 ${no}=403 ${no}=403`));
        assert.match(
          r.stderr,
          /sandboxed \(bubblewrap\): .*; egress: 2 hosts via proxy \(127\.0\.0\.1:\d+, api\.example\.com\)/,
        );
        const notes = r.stderr.split("\n").filter((l) => l.includes("blocked by the sandbox"));
        assert.deepEqual(notes, [`acp-threads run: blocked by the sandbox: connect localhost:${web}`]);
        const egress = readdirSync(w.tmp).filter((f) => f.startsWith("acp-threads-egress-"));
        assert.deepEqual(
          egress.map((f) => readdirSync(join(w.tmp, f))),
          [[]],
          "the proxy's folder is gone",
        );
      }),
    ),
);

test("exec --sandbox-hosts: the program goes out through the proxy; the refusal is noted", { skip }, () =>
  withTmpDir("sbx-hosts-", (dir) =>
    servers(async (_secret, web) => {
      const w = world(dir);
      const script = `curl -s -w ' %{http_code}' http://127.0.0.1:${web}/; curl -s -o /dev/null -w ' %{http_code}' http://localhost:${web}/`;
      const r = await runCli(["exec", "--sandbox-hosts", `127.0.0.1:${web}`, "--", "sh", "-c", script], {
        home: w.data,
        cwd: w.ws,
        env: w.env,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "hello 200 403");
      assert.match(r.stderr, new RegExp(`acp-threads exec: blocked by the sandbox: connect localhost:${web}`));
    }),
  ),
);

test("a bad --sandbox-hosts entry is a usage error naming it, and nothing runs", () =>
  withTmpDir("sbx-hosts-", async (dir) => {
    const w = world(dir);
    const r = await runCli(["run", "--sandbox-hosts", "https://api.openai.com", "--agent", HOSTILE, "escape"], {
      home: w.data,
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /sandbox allowed host 'https:\/\/api.openai.com' is not valid/);
    assert.equal(r.stdout, "");
  }));
