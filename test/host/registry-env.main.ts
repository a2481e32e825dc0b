// A local ACP Registry for e2e and manual runs (test/fixtures/registry), printed as one JSON line
// {"url": "http://127.0.0.1:N/registry.json"}, serving until SIGTERM/SIGINT. It lists a binary fake agent
// ("Fake Coder", its archive sent slowly so the install's progress can be seen), an npx and a uvx agent.
//   node dist-test/host/registry-env.main.js
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { binaryEntry, fakeAgentArchives } from "../fixtures/registry/archives";
import { start } from "../fixtures/registry/server";

const icon = (path: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="${path}"/></svg>`,
  ).toString("base64")}`;

/** Serves `bytes` in 20 pieces over about `ms` milliseconds, with its length (so the download has a share). */
async function slowFile(bytes: Buffer, ms: number): Promise<{ url: string; close(): void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": bytes.length });
    const step = Math.ceil(bytes.length / 20);
    let at = 0;
    const timer = setInterval(() => {
      res.write(bytes.subarray(at, at + step));
      at += step;
      if (at >= bytes.length) {
        clearInterval(timer);
        res.end();
      }
    }, ms / 20);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fake-coder.tar.gz`,
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const { tarGz } = fakeAgentArchives("1.2.0");
  const slow = await slowFile(tarGz.bytes, Number(process.env.REGISTRY_ENV_DOWNLOAD_MS ?? 4000));
  const reg = await start({
    agents: [
      {
        ...binaryEntry("fake-coder", "1.2.0", { url: slow.url, cmd: "./bin/fake-agent", sha256: tarGz.sha256 }),
        name: "Fake Coder",
        description: "A scripted coding agent served by the local test registry",
        icon: icon("M2 3h12v10H2z M4 6l2 2-2 2 M8 10h4"),
      },
      {
        id: "npx-helper",
        name: "Npx Helper",
        version: "2.0.1",
        description: "An agent published on npm, started through npx",
        license: "Apache-2.0",
        icon: icon("M8 1l7 4v6l-7 4-7-4V5z"),
        distribution: { npx: { package: "@example/npx-helper-acp@2.0.1" } },
      },
      {
        id: "uvx-helper",
        name: "Uvx Helper",
        version: "0.4.0",
        description: "An agent published on PyPI, started through uvx",
        license: "MIT",
        distribution: { uvx: { package: "uvx-helper-acp==0.4.0" } },
      },
    ],
  });
  process.stdout.write(JSON.stringify({ url: reg.url, pid: process.pid }) + "\n");
  const stop = () =>
    void reg.close().finally(() => {
      slow.close();
      process.exit(0);
    });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
