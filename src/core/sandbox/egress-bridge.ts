/**
 * How a sandboxed agent with allowed hosts reaches the egress proxy (#34). Linux: the sandbox has no network
 * (`bwrap --unshare-net`: a loopback of its own and nothing else), so its entry is a tiny bridge run by the Node
 * we run on (`node -e BRIDGE_SOURCE`, no file to ship or find): it listens on the sandbox's 127.0.0.1:EGRESS_PORT,
 * forwards each connection to the proxy's unix socket (bound into the sandbox), and only then starts the agent as
 * its child, stdio inherited; it exits as the agent does, and dies with the sandbox. The agent is pointed at it
 * through the proxy variables every HTTP client reads (`HTTPS_PROXY`, ..., `NODE_USE_ENV_PROXY=1` for Node's
 * fetch), `NO_PROXY` cleared. A client that ignores them has no route out at all. macOS: no bridge, the proxy
 * listens on the machine's loopback and Seatbelt allows only that port (seatbelt.ts).
 */
import type { Launch } from "../platform/shell";

/** The bridge's port inside the sandbox's own loopback (free: nothing else listens there when it starts). */
export const EGRESS_PORT = 3128;

/** The proxy variables, upper and lower case, pointing at `port` on the loopback; `NO_PROXY` is removed. */
export function egressEnv(port: number): { set: Record<string, string>; unset: string[] } {
  const url = `http://127.0.0.1:${port}`;
  const set: Record<string, string> = { NODE_USE_ENV_PROXY: "1" };
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    set[name] = url;
    set[name.toLowerCase()] = url;
  }
  return { set, unset: ["NO_PROXY", "no_proxy"] };
}

/**
 * The bridge, run as `node -e BRIDGE_SOURCE -- PORT SOCKET ELECTRON FD3 FILE ARGS...` (ELECTRON `1`: we set
 * `ELECTRON_RUN_AS_NODE` to run Electron as Node, the agent must not inherit it; FD3 `1`: fd 3, the seccomp
 * filter, is handed on to the agent's launch, a nested bwrap that loads it: the bridge itself stays outside the
 * filter, it needs a unix socket). Ctrl-C and Ctrl-\ reach the
 * agent from its terminal (same process group): the bridge ignores them; a TERM or HUP sent to it alone is passed
 * on. The agent's exit status becomes the bridge's (a signal is raised again on itself).
 */
export const BRIDGE_SOURCE = `"use strict";
const net = require("node:net"), cp = require("node:child_process");
const [port, socket, electron, fd3, file, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(socket);
  const end = () => { c.destroy(); u.destroy(); };
  c.on("error", end); u.on("error", end); c.on("close", end); u.on("close", end);
  c.pipe(u); u.pipe(c);
});
server.on("error", (e) => { process.stderr.write("sandbox egress bridge: " + e.message + "\\n"); process.exit(125); });
server.listen(Number(port), "127.0.0.1", () => {
  const env = { ...process.env };
  if (electron === "1") delete env.ELECTRON_RUN_AS_NODE;
  const stdio = fd3 === "1" ? ["inherit", "inherit", "inherit", 3] : "inherit";
  const child = cp.spawn(file, args, { stdio, env });
  for (const s of ["SIGINT", "SIGQUIT"]) process.on(s, () => {});
  for (const s of ["SIGTERM", "SIGHUP"]) process.on(s, () => child.kill(s));
  child.on("error", (e) => { process.stderr.write(file + ": " + e.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => {
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    else process.exit(code ?? 1);
  });
});
`;

/** `launch` started through the bridge, forwarding to the proxy socket `socket` (`fd3`: fd 3 handed on to it). */
export function bridgedLaunch(
  launch: Launch,
  socket: string,
  fd3 = false,
): { launch: Launch; env: Record<string, string> } {
  const electron = process.versions.electron !== undefined;
  return {
    launch: {
      file: process.execPath,
      args: [
        "-e",
        BRIDGE_SOURCE,
        "--",
        String(EGRESS_PORT),
        socket,
        electron ? "1" : "0",
        fd3 ? "1" : "0",
        launch.file,
        ...launch.args,
      ],
    },
    env: electron ? { ELECTRON_RUN_AS_NODE: "1" } : {},
  };
}
