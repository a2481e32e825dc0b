#!/usr/bin/env node
// The suite through @vscode/test-electron's usual `runTests` API. Offline it cannot download VS Code, so
// vscodeExecutablePath is test/host/code-shim.sh, which runs the same suite in code-server's extension host.
// Set VSCODE_EXECUTABLE to use a real desktop VS Code build instead.
//   node test/host/electron-api.mjs [--grep RE]
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const { runTests } = createRequire(path.join(root, "package.json"))("@vscode/test-electron");
const grep = process.argv.indexOf("--grep");
try {
  await runTests({
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || path.join(here, "code-shim.sh"),
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, "dist-test/host/suite/index.main.js"),
    extensionTestsEnv: {
      ACP_HOST_LAUNCHER: "@vscode/test-electron",
      ...(grep > 0 ? { ACP_HOST_GREP: process.argv[grep + 1] } : {}),
    },
  });
  process.exit(0);
} catch (err) {
  console.error(String(err?.message ?? err));
  process.exit(1);
}
