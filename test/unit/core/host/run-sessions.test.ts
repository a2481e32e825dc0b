// `acpThreads.host.runSessions` (#35): `auto`, the default, is the thread host where its door is the user's alone
// (POSIX: a 0600 socket in a 0700 folder) and the window on Windows (a named pipe with Node's default DACL, which
// lets others open it for reading); `host` and `window` are taken as they are. The platform is injected: the
// Windows branch is decided here on Linux.
import assert from "node:assert/strict";
import { test } from "node:test";
import { doorIsUsersAlone, runSessionsWhere } from "../../../../src/core/host/door";
import { platformOf } from "../../../../src/core/platform/host";

const linux = platformOf("linux");
const mac = platformOf("darwin");
const windows = platformOf("win32");

test("auto (and an unset or unknown value) is the host on POSIX, where the door is the user's alone", () => {
  for (const p of [linux, mac]) {
    assert.equal(doorIsUsersAlone(p), true);
    for (const v of ["auto", undefined, "", "hosted", 7]) assert.equal(runSessionsWhere(v, p), "host", String(v));
  }
});

test("auto is the window on Windows until the host's pipe gets a user-only ACL", () => {
  assert.equal(doorIsUsersAlone(windows), false);
  for (const v of ["auto", undefined, "", "hosted"]) assert.equal(runSessionsWhere(v, windows), "window", String(v));
});

test("host and window are taken as they are, on every platform", () => {
  for (const p of [linux, mac, windows]) {
    assert.equal(runSessionsWhere("host", p), "host");
    assert.equal(runSessionsWhere("window", p), "window");
  }
});
