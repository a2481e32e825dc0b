/**
 * The bubblewrap command line for a plan (Linux): the whole file system read-only, a fresh /dev and /proc, the
 * writable paths bound read-write, each denied path hidden (an empty tmpfs over a folder; a file by hiding its
 * folder whole and showing the folder's other entries again, hidden-folders.ts, or, in a folder the agent may
 * write, /dev/null over it), and the read-only paths inside denied folders bound again. Mounts go shallow to deep, so a denied folder inside
 * a writable root stays hidden and a root inside a denied folder stays usable; each tmpfs is made read-only last,
 * once bwrap has made the mount points below it. The network is the host's, unless hosts are allowed: then the
 * sandbox gets a network of its own (`--unshare-net`: loopback only), every session's egress folder is hidden but
 * this session's, bound read-only (connecting to its socket is the way out: egress-bridge.ts). `--unshare-pid`
 * puts the agent and everything it starts in a pid namespace that dies with it; `--die-with-parent` ends it when
 * we die. No `--new-session`: agents are already spawned in a session of their own (detached), and an exec run's
 * pty must stay its controlling terminal.
 */
import { shallowToDeep, type PathRule, type SandboxMounts } from "./policy";

export function bwrapArgs(plan: SandboxMounts, cwd: string): string[] {
  const hidden = plan.hiddenFolders ?? [];
  const mounts = shallowToDeep<PathRule & { args: string[] }>([
    ...plan.writable.map((path) => ({ path, args: ["--bind", path, path], order: 0 })),
    ...plan.denyRead
      .filter((d) => !d.hidden)
      .map(({ path, dir }) => ({ path, args: dir ? ["--tmpfs", path] : ["--ro-bind", "/dev/null", path], order: 1 })),
    ...hidden.map(({ path }) => ({ path, args: ["--tmpfs", path], order: 1 })),
    ...hidden.flatMap((f) =>
      f.entries.map(({ path, link }) => ({
        path,
        // -try: an entry removed outside since the plan was made is left out, never a failed start
        args: link === undefined ? ["--ro-bind-try", path, path] : ["--symlink", link, path],
        order: 2,
      })),
    ),
    ...plan.readOnly.map((path) => ({ path, args: ["--ro-bind", path, path], order: 2 })),
  ]);
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...mounts.flatMap((m) => m.args),
    ...(plan.egress?.kind === "socket"
      ? ["--tmpfs", plan.egress.hidden, "--ro-bind", plan.egress.dir, plan.egress.dir, "--unshare-net"]
      : []),
    ...[...plan.denyRead.filter((d) => d.dir), ...hidden].flatMap((d) => ["--remount-ro", d.path]),
    "--unshare-pid",
    "--die-with-parent",
    "--chdir",
    cwd,
  ];
}
