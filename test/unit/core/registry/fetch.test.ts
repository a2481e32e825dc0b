import assert from "node:assert/strict";
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { agentsLayout, DEFAULT_REGISTRY_URL, fetchRegistry, resolveRegistryUrl } from "../../../../src/core/registry";
import { start } from "../../../fixtures/registry/server";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const good = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Agent ${id}`,
  version: "1.2.3",
  description: "an agent",
  distribution: { npx: { package: `${id}@1.2.3` } },
  ...extra,
});

test("resolveRegistryUrl: flag, then ACP_THREADS_REGISTRY_URL, then the setting, then the CDN", () => {
  const env = { ACP_THREADS_REGISTRY_URL: "http://env/r.json" };
  assert.equal(
    resolveRegistryUrl({ flag: "http://flag/r.json", env, setting: "http://s/r.json" }),
    "http://flag/r.json",
  );
  assert.equal(resolveRegistryUrl({ env, setting: "http://s/r.json" }), "http://env/r.json");
  assert.equal(resolveRegistryUrl({ env: {}, setting: "http://s/r.json" }), "http://s/r.json");
  assert.equal(resolveRegistryUrl({ env: {}, setting: "" }), DEFAULT_REGISTRY_URL);
});

test("bad entries are set aside with a reason, the good ones listed, and the copy cached 0600", () =>
  withTmpDir("reg-fetch-", async (home) => {
    const reg = await start({
      agents: [
        good("fine", { icon: "data:image/svg+xml;base64,AAAA", unknownField: 1 }),
        good("Bad_Id"),
        good("badver", { version: "one" }),
        { ...good("nodist"), distribution: {} },
        good("installer", {
          distribution: { binary: { "linux-x86_64": { archive: "https://x/agent.dmg", cmd: "./a" } } },
        }),
        good("badsha", {
          distribution: { binary: { "linux-x86_64": { archive: "https://x/a.tar.gz", cmd: "./a", sha256: "xyz" } } },
        }),
        { id: "nodesc", name: "n", version: "1.0.0", distribution: { npx: { package: "n" } } },
        "not an object",
      ],
    });
    try {
      const listing = await fetchRegistry({ url: reg.url, dataHome: home });
      assert.equal(listing.source, "network");
      assert.equal(listing.error, undefined);
      assert.deepEqual(
        listing.index.agents.map((a) => a.id),
        ["fine"],
      );
      assert.equal((listing.index.agents[0] as unknown as Record<string, unknown>).unknownField, undefined);
      const reasons = Object.fromEntries(listing.rejected.map((r) => [r.id, r.reason]));
      assert.match(reasons.Bad_Id!, /must match/);
      assert.match(reasons.badver!, /not semver/);
      assert.match(reasons.nodist!, /no npx, uvx or binary/);
      assert.match(reasons.installer!, /installer/);
      assert.match(reasons.badsha!, /sha256/);
      assert.match(reasons.nodesc!, /description/);
      assert.match(reasons["#7"]!, /not an object/);
      const cache = agentsLayout(home).cacheFile;
      assert.equal(statSync(cache).mode & 0o777, 0o600);
    } finally {
      await reg.close();
    }
  }));

test("registry down: the cached copy, then the bundled snapshot, each saying why", () =>
  withTmpDir("reg-down-", async (home) => {
    const reg = await start({ agents: [good("cached-one")] });
    try {
      assert.equal((await fetchRegistry({ url: reg.url, dataHome: home })).source, "network");
      reg.setDown(true);
      const cached = await fetchRegistry({ url: reg.url, dataHome: home });
      assert.equal(cached.source, "cache");
      assert.match(cached.error!, /HTTP 503/);
      assert.deepEqual(
        cached.index.agents.map((a) => a.id),
        ["cached-one"],
      );
      rmSync(agentsLayout(home).cacheFile);
      const snap = await fetchRegistry({ url: reg.url, dataHome: home });
      assert.equal(snap.source, "snapshot");
      assert.match(snap.error!, /bundled snapshot/);
      assert.ok(snap.index.agents.length >= 5, "the snapshot lists the real registry's agents");
      assert.ok(snap.index.agents.some((a) => a.id === "gemini"));
      assert.deepEqual(snap.rejected, []);
    } finally {
      await reg.close();
    }
  }));

test("a cache of another registry URL is not used; garbage from the server falls back too", () =>
  withTmpDir("reg-other-", async (home) => {
    const reg = await start({ agents: [good("a")] });
    try {
      await fetchRegistry({ url: reg.url, dataHome: home });
      const other = await fetchRegistry({ url: `${reg.base}/nothing.json`, dataHome: home });
      assert.equal(other.source, "snapshot");
      assert.match(other.error!, /HTTP 404/);
    } finally {
      await reg.close();
    }
  }));

test("a file: URL is read, and a server that never answers times out into the fallback", () =>
  withTmpDir("reg-file-", async (home) => {
    const file = join(home, "registry.json");
    writeFileSync(file, JSON.stringify({ version: "1.0.0", agents: [good("local")] }));
    const listing = await fetchRegistry({ url: pathToFileURL(file).href, dataHome: home });
    assert.equal(listing.source, "network");
    assert.equal(listing.index.agents[0]!.id, "local");
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/registry.json`;
      const late = await fetchRegistry({ url, dataHome: home, timeoutMs: 300 });
      assert.equal(late.source, "snapshot");
      assert.match(late.error!, /no answer .* within 300 ms/);
      assert.ok(existsSync(agentsLayout(home).cacheFile)); // the file: copy was cached
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }));
