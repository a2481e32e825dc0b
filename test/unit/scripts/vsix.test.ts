/**
 * The VSIX rules (scripts/vsix.mjs): which native files each target gets, how a binary's platform is read off
 * its header (checked against node-pty's real binaries in node_modules), and the checker that
 * `npm run package:all` runs on every package it builds (here on small zips written by the test).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { withTmp } from "../core/store/helpers";

const ROOT = join(__dirname, "../../..");
interface VsixLib {
  nativeTarget(buf: Buffer): string | undefined;
  availableTargets(root: string): { targets: Map<string, string[]>; missing: Map<string, string> };
  checkVsix(path: string, target: string, expected: string[], opts?: { repository?: string }): string[];
}
const lib = () => import(pathToFileURL(join(ROOT, "scripts/vsix.mjs")).href) as Promise<VsixLib>;
const PTY = "node_modules/node-pty";

/** A stored (uncompressed) zip: enough for the checker, which reads what vsce writes the same way. */
function writeZip(path: string, files: Record<string, { data: Buffer | string; mode?: number }>) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, f] of Object.entries(files)) {
    const data = Buffer.from(f.data);
    const nameBuf = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(((f.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, dir, end]));
}

const real = (rel: string) => readFileSync(join(ROOT, rel));

test("a binary's platform is read off its header (node-pty's real binaries)", async () => {
  const { nativeTarget } = await lib();
  assert.equal(nativeTarget(real(`${PTY}/build/Release/pty.node`)), "linux-x64", "compiled here by npm ci");
  for (const t of ["darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"]) {
    assert.equal(nativeTarget(real(`${PTY}/prebuilds/${t}/pty.node`)), t);
  }
  assert.equal(nativeTarget(real(`${PTY}/prebuilds/darwin-arm64/spawn-helper`)), "darwin-arm64");
  assert.equal(nativeTarget(real(`${PTY}/prebuilds/win32-arm64/conpty/OpenConsole.exe`)), "win32-arm64");
  assert.equal(nativeTarget(real(`${PTY}/lib/index.js`)), undefined);
  const muslArm = Buffer.alloc(256);
  muslArm.writeUInt32BE(0x7f454c46, 0);
  muslArm.writeUInt16LE(0xb7, 18);
  muslArm.write("libc.musl-aarch64.so.1", 100);
  assert.equal(nativeTarget(muslArm), "alpine-arm64");
});

test("targets: this machine's build plus node-pty's prebuilds, without debug symbols; the rest are named", async () => {
  const { availableTargets } = await lib();
  const { targets, missing } = availableTargets(ROOT);
  assert.deepEqual([...targets.keys()].sort(), ["darwin-arm64", "darwin-x64", "linux-x64", "win32-arm64", "win32-x64"]);
  assert.deepEqual(targets.get("linux-x64"), [`${PTY}/build/Release/pty.node`]);
  assert.deepEqual(targets.get("darwin-arm64"), [
    `${PTY}/prebuilds/darwin-arm64/pty.node`,
    `${PTY}/prebuilds/darwin-arm64/spawn-helper`,
  ]);
  const win = targets.get("win32-x64")!;
  assert.ok(win.includes(`${PTY}/prebuilds/win32-x64/conpty.node`));
  assert.ok(!win.some((f) => f.endsWith(".pdb")), "no debug symbols");
  assert.deepEqual([...missing.keys()].sort(), ["alpine-arm64", "alpine-x64", "linux-arm64", "linux-armhf"]);
});

test("the checker passes a right package and names every wrong one", () =>
  withTmp(async (dir) => {
    const { checkVsix } = await lib();
    const base = {
      "extension.vsixmanifest": { data: '<Identity Id="acp-threads" TargetPlatform="darwin-arm64"/>' },
      "extension/package.json": { data: "{}".padEnd(200) },
      "extension/dist/extension.js": { data: "x".repeat(200) },
      "extension/dist/cli.js": { data: "x".repeat(200) },
      "extension/dist/cli/recall.js": { data: "x".repeat(200) },
      "extension/dist/engine-worker.js": { data: "x".repeat(200) },
      "extension/dist/cli/host.js": { data: "x".repeat(200) },
      "extension/dist/engine-process-worker.js": { data: "x".repeat(200) },
      "extension/dist/catalog-worker.js": { data: "x".repeat(200) },
      "extension/dist/spawner.js": { data: "x".repeat(200) },
      "extension/dist/webview/thread.js": { data: "x".repeat(200) },
      "extension/LICENSE.txt": { data: "MIT License" },
      "extension/media/icon.png": { data: "png" },
      "extension/readme.md": { data: "# ACP Threads\n" },
      "extension/node_modules/node-pty/lib/index.js": { data: "module.exports = {}" },
    };
    const natives = [`${PTY}/prebuilds/darwin-arm64/pty.node`, `${PTY}/prebuilds/darwin-arm64/spawn-helper`];
    const good = join(dir, "good.vsix");
    writeZip(good, {
      ...base,
      [`extension/${natives[0]}`]: { data: real(natives[0]!) },
      [`extension/${natives[1]}`]: { data: real(natives[1]!), mode: 0o100755 },
    });
    assert.deepEqual(checkVsix(good, "darwin-arm64", natives), []);

    const bad = join(dir, "bad.vsix");
    writeZip(bad, {
      ...base,
      [`extension/${natives[0]}`]: { data: real(`${PTY}/prebuilds/darwin-x64/pty.node`) },
      [`extension/${natives[1]}`]: { data: real(natives[1]!), mode: 0o100644 },
      [`extension/${PTY}/build/Release/pty.node`]: { data: real(`${PTY}/build/Release/pty.node`) },
      "extension/node_modules/node-pty/lib/terminal.test.js": { data: "test" },
      "extension/node_modules/node-pty/lib/index.js.map": { data: "{}" },
    });
    const problems = checkVsix(bad, "darwin-arm64", natives).join("\n");
    assert.match(problems, /unexpected native file node_modules\/node-pty\/build\/Release\/pty\.node/);
    assert.match(problems, /darwin-arm64\/pty\.node is built for darwin-x64, not darwin-arm64/);
    assert.match(problems, /spawn-helper is not executable in the package \(mode 644\)/);
    assert.match(problems, /node_modules\/node-pty\/lib\/terminal\.test\.js should not ship/);
    assert.match(problems, /node_modules\/node-pty\/lib\/index\.js\.map should not ship/);

    const universal = join(dir, "universal.vsix");
    writeZip(universal, { ...base, "extension.vsixmanifest": { data: "<Identity/>" } });
    assert.deepEqual(checkVsix(universal, "universal", []), []);
    assert.match(checkVsix(universal, "linux-x64", []).join(), /manifest says target universal, expected linux-x64/);
    assert.match(checkVsix(universal, "universal", natives).join(), /missing native file/);

    const bare = join(dir, "bare.vsix");
    const { "extension/LICENSE.txt": _license, "extension/media/icon.png": _icon, ...rest } = base;
    writeZip(bare, { ...rest, "extension.vsixmanifest": { data: "<Identity/>" } });
    assert.deepEqual(checkVsix(bare, "universal", []), ["LICENSE.txt is missing", "media/icon.png is missing"]);
  }));
