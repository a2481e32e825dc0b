/** Hostile registry entries: archives from anywhere but https (or http on this machine) are refused. */
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { installAgent, listInstalled, validateAgent } from "../../../../src/core/registry";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { binaryEntry, zipOf } from "../../../fixtures/registry/archives";

const withArchive = (archive: string) => binaryEntry("remote", "1.0.0", { url: archive, cmd: "./agent" });

test("an archive URL must be https, or http to this machine; file:, data:, other hosts' http and credentials are refused", () => {
  for (const ok of [
    "https://github.com/o/r/releases/download/v1/a.tar.gz",
    "http://127.0.0.1:8080/a.zip",
    "http://localhost/a.zip",
    "http://[::1]:9/a.zip",
  ])
    assert.doesNotThrow(() => validateAgent(withArchive(ok)), ok);
  for (const [bad, why] of [
    ["file:///etc/passwd", /file: scheme is refused/],
    ["http://example.com/a.tar.gz", /plain http is refused/],
    ["http://127.0.0.1.example.com/a.tar.gz", /plain http is refused/],
    ["data:application/zip;base64,UEsFBg==", /data: scheme is refused/],
    ["ftp://example.com/a.zip", /ftp: scheme is refused/],
    ["https://user:token@example.com/a.zip", /user name or password/],
    ["not a url", /not a URL/],
  ] as const)
    assert.throws(() => validateAgent(withArchive(bad)), why, bad);
});

test("an install whose archive redirects to a local file installs nothing and never runs it", () =>
  withTmpDir("reg-evil-", async (dir) => {
    const marker = join(dir, "evil-ran");
    const evil = join(dir, "evil.zip");
    writeFileSync(evil, zipOf([{ name: "agent", data: `#!/bin/sh\necho ran > "${marker}"\n`, mode: 0o755 }]));
    const server = createServer((_req, res) => res.writeHead(302, { location: pathToFileURL(evil).href }).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent.zip`;
      const entry = validateAgent(withArchive(url)); // the entry itself is fine: the server turns hostile
      const home = join(dir, "home");
      await assert.rejects(installAgent(entry, { dataHome: home, registryUrl: url }), /file: scheme is refused/);
      assert.equal(existsSync(marker), false, "the local file was installed and run");
      assert.deepEqual(listInstalled(home), []);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }));
