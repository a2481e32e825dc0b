/**
 * Shared by the engine request tests: a local ACP Registry (test/fixtures/registry/server.ts) listing the fake agent
 * `fake` at 1.0.0 (a .tar.gz) and, after `toV2()`, at 2.0.0 (a .zip), and an engine over `home` that reads it.
 */
import { localEngine, type LocalEngine } from "../../../../src/core/engine/local";
import { binaryEntry, fakeAgentArchives } from "../../../fixtures/registry/archives";
import { start, type RegistryServer } from "../../../fixtures/registry/server";

export interface RegistryFixture {
  reg: RegistryServer;
  engine: LocalEngine;
  /** The registry now lists `fake` 2.0.0. */
  toV2(): void;
  close(): Promise<void>;
}

export async function registryFixture(home: string, env: NodeJS.ProcessEnv = process.env): Promise<RegistryFixture> {
  const v1 = fakeAgentArchives("1.0.0");
  const v2 = fakeAgentArchives("2.0.0");
  const reg = await start({ files: { [v1.tarGz.name]: v1.tarGz.bytes, [v2.zip.name]: v2.zip.bytes } });
  const entry = (v: typeof v1.tarGz, version: string, cmd: string) =>
    binaryEntry("fake", version, { url: reg.fileUrl(v.name), cmd, sha256: v.sha256 });
  reg.setAgents([entry(v1.tarGz, "1.0.0", "./bin/fake-agent"), { id: "Broken", name: "b" }]);
  return {
    reg,
    engine: localEngine({ home, env: { ...env, ACP_THREADS_REGISTRY_URL: reg.url } }),
    toV2: () => reg.setAgents([entry(v2.zip, "2.0.0", "./fake-agent")]),
    close: () => reg.close(),
  };
}
