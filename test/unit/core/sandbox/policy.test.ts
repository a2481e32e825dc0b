/** The sandbox policy, the bwrap command line and the Seatbelt profile, as data (no sandbox runs here). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { platformOf } from "../../../../src/core/platform/host";
import { agentStateFolders } from "../../../../src/core/sandbox/agent-state";
import { bwrapArgs } from "../../../../src/core/sandbox/bwrap";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";
import { seatbeltProfile } from "../../../../src/core/sandbox/seatbelt";
import { sandboxBlockedWrites } from "../../../../src/core/sandbox/blocked";

const linux = platformOf("linux");
const base = { home: "/home/u", env: {}, tmpDir: "/tmp", platform: linux };

test("the policy: roots and temp writable, the agent's state folders, secrets and other threads unreadable", () => {
  const policy = buildSandboxPolicy({
    ...base,
    roots: ["/ws/a", "/ws/b/", "/ws/a"],
    agentId: "codex",
    dataHome: "/home/u/.acp-threads",
    settings: { denyRead: ["~/secret.txt"], writable: ["/opt/cache"] },
  });
  assert.deepEqual(policy.roots, ["/ws/a", "/ws/b/"]);
  assert.ok(policy.writable.includes("/tmp"));
  assert.ok(policy.writable.includes("/home/u/.codex"));
  assert.ok(policy.writable.includes("/opt/cache"));
  assert.ok(!policy.writable.includes("/home/u"), "never the whole home");
  for (const secret of [".ssh", ".gnupg", ".aws", ".config/gh", ".netrc", ".docker", "secret.txt"]) {
    assert.ok(policy.denyRead.includes(`/home/u/${secret}`), secret);
  }
  assert.ok(policy.denyRead.includes("/home/u/.acp-threads"), "the data home, as one folder");
  assert.deepEqual(policy.readOnly, ["/home/u/.acp-threads/agents", "/home/u/.acp-threads/runtimes"]);
  assert.ok(policy.denyRead.includes("/run/docker.sock"));
  const ssh = buildSandboxPolicy({
    ...base,
    env: { SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1" },
    roots: ["/ws"],
    agentId: "x",
  });
  assert.ok(ssh.denyRead.includes("/tmp/ssh-x/agent.1"), "the ssh agent signs with the user's keys");
  assert.equal(policy.network, "all");
});

test("an allow-list of hosts switches the network mode; a relative sandbox path is refused", () => {
  const policy = buildSandboxPolicy({
    ...base,
    roots: ["/ws"],
    agentId: "x",
    settings: { allowedHosts: [" a.b ", ""] },
  });
  assert.equal(policy.network, "allow-list");
  assert.deepEqual(policy.allowedHosts, ["a.b"]);
  assert.throws(
    () => buildSandboxPolicy({ ...base, roots: ["/ws"], agentId: "x", settings: { denyRead: ["rel/x"] } }),
    /absolute or start with ~\//,
  );
});

test("agents' state folders follow their environment variables", () => {
  const env = { CODEX_HOME: "/c", CLAUDE_CONFIG_DIR: "/cl", XDG_DATA_HOME: "/d" };
  assert.ok(agentStateFolders("codex-acp", "/h", env, linux).includes("/c"));
  assert.deepEqual(agentStateFolders("claude-acp", "/h", env, linux).slice(0, 2), ["/cl", "/h/.claude.json"]);
  assert.ok(agentStateFolders("gemini", "/h", {}, linux).includes("/h/.gemini"));
  assert.ok(agentStateFolders("opencode", "/h", env, linux).includes("/d/opencode"));
  assert.ok(agentStateFolders("opencode", "/h", {}, linux).includes("/h/.config/opencode"));
  assert.ok(agentStateFolders("pi", "/h", {}, linux).includes("/h/.pi"));
  assert.ok(!agentStateFolders("pirate", "/h", {}, linux).includes("/h/.pi"));
  assert.deepEqual(agentStateFolders("my-agent", "/h", {}, linux), ["/h/.npm", "/h/.cache/uv"]);
});

test("bwrap: all read-only, writable binds and hidden paths shallow to deep, a pid namespace, the cwd", () => {
  const args = bwrapArgs(
    {
      writable: ["/ws/.secrets/deep/er", "/ws"],
      denyRead: [
        { path: "/ws/.secrets", dir: true },
        { path: "/home/u/.netrc", dir: false },
      ],
      readOnly: ["/ws/.secrets/shown"],
    },
    "/ws",
  );
  assert.deepEqual(args.slice(0, 7), ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
  const line = args.join(" ");
  const at = (s: string) => {
    assert.ok(line.includes(s), s);
    return line.indexOf(s);
  };
  assert.ok(at("--bind /ws /ws") < at("--tmpfs /ws/.secrets"));
  assert.ok(at("--tmpfs /ws/.secrets") < at("--ro-bind /ws/.secrets/shown /ws/.secrets/shown"));
  assert.ok(at("--tmpfs /ws/.secrets") < at("--bind /ws/.secrets/deep/er /ws/.secrets/deep/er"));
  // read-only only once bwrap made the mount points inside it
  assert.ok(at("--bind /ws/.secrets/deep/er /ws/.secrets/deep/er") < at("--remount-ro /ws/.secrets"));
  assert.ok(line.includes("--ro-bind /dev/null /home/u/.netrc"));
  assert.ok(line.includes("--unshare-pid --die-with-parent --chdir /ws"));
  assert.ok(!line.includes("--unshare-net"), "agents must reach their model");
  assert.ok(!line.includes("--new-session"), "a pty run keeps its controlling terminal");
});

test("bwrap: a denied file's folder hidden whole, its other entries shown again, read-only once mounted", () => {
  const line = bwrapArgs(
    {
      writable: ["/ws", "/home/u/.claude.json"],
      denyRead: [
        { path: "/home/u/.netrc", dir: false, hidden: true },
        { path: "/home/u/.ssh", dir: true },
        { path: "/ws/.env", dir: false },
      ],
      hiddenFolders: [
        { path: "/home/u", entries: [{ path: "/home/u/.gitconfig" }, { path: "/home/u/rc", link: "dots/rc" }] },
      ],
      readOnly: [],
    },
    "/ws",
  ).join(" ");
  const at = (s: string) => {
    assert.ok(line.includes(s), s);
    return line.indexOf(s);
  };
  assert.ok(!line.includes("/home/u/.netrc"), "no mount over the file itself: nothing to fall off");
  assert.ok(at("--tmpfs /home/u ") < at("--ro-bind-try /home/u/.gitconfig /home/u/.gitconfig"));
  assert.ok(at("--tmpfs /home/u ") < at("--symlink dots/rc /home/u/rc"));
  assert.ok(at("--tmpfs /home/u ") < at("--bind /home/u/.claude.json /home/u/.claude.json"));
  assert.ok(at("--tmpfs /home/u ") < at("--tmpfs /home/u/.ssh"));
  assert.ok(at("--bind /home/u/.claude.json /home/u/.claude.json") < at("--remount-ro /home/u "));
  assert.ok(line.includes("--ro-bind /dev/null /ws/.env"), "in a writable folder: the mount over the file");
});

test("Seatbelt: writes denied but to devices, then one rule per path shallow to deep (the last match wins), strings escaped", () => {
  const profile = seatbeltProfile({
    writable: ["/ws", '/we"ird\\dir', "/Users/u/.ssh/root"],
    denyRead: [
      { path: "/Users/u/.ssh", dir: true },
      { path: "/Users/u/.netrc", dir: false },
      { path: "/ws/.env", dir: false },
    ],
    readOnly: ["/Users/u/.ssh/shown"],
  });
  assert.match(profile, /^\(version 1\)\n\(allow default\)\n\(deny file-write\*\)\n\(allow file-write\*\n/);
  const rules = profile.split("\n").filter((l) => /^\((allow|deny) file-read\*/.test(l));
  assert.deepEqual(rules, [
    '(allow file-read* file-write* (subpath "/ws"))',
    '(allow file-read* file-write* (subpath "/we\\"ird\\\\dir"))',
    '(deny file-read* file-write* (literal "/ws/.env"))',
    '(deny file-read* file-write* (literal "/Users/u/.netrc"))',
    '(deny file-read* file-write* (subpath "/Users/u/.ssh"))',
    '(allow file-read* file-write* (subpath "/Users/u/.ssh/root"))',
    '(allow file-read* (subpath "/Users/u/.ssh/shown"))',
  ]);
  assert.ok(profile.indexOf(rules[0]!) > profile.indexOf("(allow file-write*\n"), "after the devices' writes");
});

test("bwrap with allowed hosts: no network but loopback, every egress folder hidden but the session's, read-only", () => {
  const egress = {
    kind: "socket" as const,
    hidden: "/tmp/acp-threads-egress-0",
    dir: "/tmp/acp-threads-egress-0/p-x",
    socket: "/tmp/acp-threads-egress-0/p-x/s",
  };
  const line = bwrapArgs({ writable: ["/tmp", "/ws"], denyRead: [], readOnly: [], egress }, "/ws").join(" ");
  assert.ok(line.includes("--unshare-net"));
  assert.ok(
    line.indexOf("--bind /tmp /tmp") <
      line.indexOf(
        "--tmpfs /tmp/acp-threads-egress-0 --ro-bind /tmp/acp-threads-egress-0/p-x /tmp/acp-threads-egress-0/p-x",
      ),
  );
});

test("Seatbelt with allowed hosts: outgoing connections only to the proxy's loopback port", () => {
  const profile = seatbeltProfile({
    writable: ["/ws"],
    denyRead: [],
    readOnly: [],
    egress: { kind: "port", port: 4321 },
  });
  const deny = profile.indexOf("(deny network-outbound (remote ip))");
  assert.ok(deny > 0 && deny < profile.indexOf('(allow network-outbound (remote ip "localhost:4321"))'));
  assert.ok(
    !seatbeltProfile({ writable: ["/ws"], denyRead: [], readOnly: [] }).includes("network"),
    "no list: the network is open",
  );
});

test("refused writes are read from what tools print (bwrap reports none), outside the writable paths only", () => {
  const text = [
    "sh: 1: cannot create /home/u/out.txt: Read-only file system",
    "touch: cannot touch '/etc/x': Read-only file system",
    "Error: EROFS: read-only file system, open '/home/u/.bashrc'",
    "/ws/ok.txt: Read-only file system",
  ].join("\n");
  assert.deepEqual(sandboxBlockedWrites(text, ["/ws"]), ["/home/u/out.txt", "/etc/x", "/home/u/.bashrc"]);
  assert.deepEqual(sandboxBlockedWrites("all good", ["/ws"]), []);
});
