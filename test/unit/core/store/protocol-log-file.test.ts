// The protocol log file of a run (core/store/protocol-log-file.ts): the async twin the window's own host uses
// writes what the CLI's sync one writes (secrets redacted, mode 0600), to the same place, and says the same lines.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ProtocolLog } from "../../../../src/core/acp/protocol-log";
import { writeProtocolLog, writeProtocolLogAsync } from "../../../../src/core/store/protocol-log-file";
import { withTmp } from "./helpers";

const traffic = () => {
  const log = new ProtocolLog();
  log.add("send", '{"jsonrpc":"2.0","method":"initialize"}');
  log.add("recv", '{"apiKey":"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"}');
  return log;
};

test("the async twin writes what the sync one writes: the asked file, a failed run's file, nothing else", () =>
  withTmp(async (dir) => {
    const said: string[] = [];
    const say = (line: string) => said.push(line);
    const base = { agentId: "fake", say };
    const one = traffic(); // its lines carry their times: the same log written both ways
    writeProtocolLog(one, { ...base, file: join(dir, "sync.log"), failed: false, protocolLogsDir: dir });
    await writeProtocolLogAsync(one, {
      ...base,
      file: join(dir, "async.log"),
      failed: false,
      protocolLogsDir: dir,
    });
    const sync = readFileSync(join(dir, "sync.log"), "utf8");
    assert.equal(readFileSync(join(dir, "async.log"), "utf8"), sync);
    assert.ok(!sync.includes("abcdefghijklmnopqrstuvwxyz"), "the key is redacted");
    assert.equal(statSync(join(dir, "async.log")).mode & 0o777, 0o600);
    assert.deepEqual(said, [], "an asked file is not named");
    // a failed run without a file: a new file in the protocol logs, named; a run that did not fail: none
    const logs = join(dir, "logs");
    await writeProtocolLogAsync(traffic(), { ...base, failed: false, protocolLogsDir: logs });
    assert.deepEqual(said, []);
    await writeProtocolLogAsync(traffic(), { ...base, failed: true, protocolLogsDir: logs });
    const [made] = readdirSync(logs);
    assert.match(made ?? "", /-fake\.log$/);
    assert.deepEqual(said, [`protocol log written to ${join(logs, made!)}`]);
    // a file it cannot write: said, not thrown
    mkdirSync(join(dir, "blocked"));
    writeFileSync(join(dir, "blocked", "f"), "");
    await writeProtocolLogAsync(traffic(), {
      ...base,
      file: join(dir, "blocked", "f", "x.log"),
      failed: true,
      protocolLogsDir: dir,
    });
    assert.match(said.at(-1) ?? "", /^could not write the protocol log: /);
  }));
