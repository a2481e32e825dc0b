// installed.json read both ways: the CLI's synchronous listInstalled and the extension host's listInstalledAsync
// give the same answers (nothing installed, a list, a corrupt file).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { agentsLayout, listInstalled, listInstalledAsync, type InstalledAgent } from "../../../../src/core/registry";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const agent = (id: string) =>
  ({
    id,
    name: id,
    version: "1.0.0",
    kind: "binary",
    dir: `/x/${id}`,
    command: `/x/${id}/a`,
    args: [],
  }) as unknown as InstalledAgent;

test("listInstalledAsync reads what listInstalled reads", async () => {
  await withTmpDir("installed-", async (home) => {
    assert.deepEqual(await listInstalledAsync(home), []); // no agents folder yet
    assert.deepEqual(listInstalled(home), []);
    const { root, installedFile } = agentsLayout(home);
    mkdirSync(root, { recursive: true });
    writeFileSync(installedFile, JSON.stringify({ version: 1, agents: [agent("a"), agent("b")] }));
    assert.deepEqual(await listInstalledAsync(home), listInstalled(home));
    assert.deepEqual(
      (await listInstalledAsync(home)).map((a) => a.id),
      ["a", "b"],
    );
    writeFileSync(installedFile, "{ not json");
    assert.throws(() => listInstalled(home), /is not valid JSON/);
    await assert.rejects(listInstalledAsync(home), /is not valid JSON/);
  });
});
