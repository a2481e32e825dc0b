/**
 * The seccomp filter a Linux sandbox adds (#34), with no native dependency: a classic-BPF program generated here
 * and handed to bubblewrap (`--seccomp FD`), which loads it for the sandbox's command. It blocks what the mounts
 * cannot: creating a unix socket (`socket(AF_UNIX, ...)`: the D-Bus session bus, a rootless docker socket, an
 * ssh agent outside the denied folders stay on the file system) and faking terminal input (`ioctl(TIOCSTI)`).
 * A foreign system-call ABI (i386 or x32 on x86_64, arm32 on aarch64) is refused whole, so the rules cannot be
 * walked around by another table's numbers. Everything else is allowed; `socketpair(AF_UNIX)` too (Node and
 * libuv use it for a child's stdio). Other architectures get no filter (`seccompFilter` says why).
 */
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { privateFolder } from "./private-folder";

export type SeccompArch = "x86_64" | "aarch64";

interface ArchTable {
  audit: number;
  socket: number;
  ioctl: number;
  /** x86_64 only: the x32 ABI's numbers carry this bit (same arch field, another table). */
  x32?: number;
}

export const SECCOMP_ARCHES: Record<SeccompArch, ArchTable> = {
  x86_64: { audit: 0xc000003e, socket: 41, ioctl: 16, x32: 0x40000000 },
  aarch64: { audit: 0xc00000b7, socket: 198, ioctl: 29 },
};

export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const EPERM = 1;
export const AF_UNIX = 1;
export const TIOCSTI = 0x5412;

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian: low half first)
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;

// BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K, BPF_RET|BPF_K
export const BPF = { LD_ABS: 0x20, JEQ: 0x15, JGE: 0x35, RET: 0x06 } as const;

export interface SockFilter {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

type Label = "deny" | "socket" | "ioctl";
type Step = SockFilter | { code: number; k: number; jt?: Label; jf?: Label } | Label;

const ld = (k: number): SockFilter => ({ code: BPF.LD_ABS, jt: 0, jf: 0, k });
const ret = (k: number): SockFilter => ({ code: BPF.RET, jt: 0, jf: 0, k });

/** The program for `arch`: labelled steps, each jump resolved to its (forward, relative) offset. */
export function seccompProgram(arch: SeccompArch): SockFilter[] {
  const t = SECCOMP_ARCHES[arch];
  const steps: Step[] = [
    ld(ARCH),
    { code: BPF.JEQ, k: t.audit, jf: "deny" },
    ld(NR),
    ...(t.x32 === undefined ? [] : [{ code: BPF.JGE, k: t.x32, jt: "deny" as const }]),
    { code: BPF.JEQ, k: t.socket, jt: "socket" },
    { code: BPF.JEQ, k: t.ioctl, jt: "ioctl" },
    ret(SECCOMP_RET_ALLOW),
    "socket",
    ld(ARG0),
    { code: BPF.JEQ, k: AF_UNIX, jt: "deny" },
    ret(SECCOMP_RET_ALLOW),
    "ioctl",
    ld(ARG1),
    { code: BPF.JEQ, k: TIOCSTI, jt: "deny" },
    ret(SECCOMP_RET_ALLOW),
    "deny",
    ret(SECCOMP_RET_ERRNO | EPERM),
  ];
  const at = new Map<Label, number>();
  const program: Array<Exclude<Step, Label>> = [];
  for (const step of steps) {
    if (typeof step === "string") at.set(step, program.length);
    else program.push(step);
  }
  return program.map((ins, i) => {
    const to = (label: Label | number | undefined) =>
      typeof label === "string" ? at.get(label)! - i - 1 : (label ?? 0);
    return { code: ins.code, jt: to(ins.jt), jf: to(ins.jf), k: ins.k };
  });
}

/** The program as the kernel reads it: 8 bytes an instruction, little-endian. */
export function seccompBytes(program: readonly SockFilter[]): Buffer {
  const buf = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    buf.writeUInt16LE(ins.code, i * 8);
    buf.writeUInt8(ins.jt, i * 8 + 2);
    buf.writeUInt8(ins.jf, i * 8 + 3);
    buf.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return buf;
}

/** This machine's filter architecture (Node's `process.arch`), or undefined where there is no filter. */
export function seccompArch(nodeArch: string = process.arch): SeccompArch | undefined {
  return nodeArch === "x64" ? "x86_64" : nodeArch === "arm64" ? "aarch64" : undefined;
}

export type SeccompFilter = { path: string; arch: SeccompArch } | { path?: undefined; problem: string };

const written = new Map<string, Promise<SeccompFilter>>();

async function writeFilter(dir: string, arch: SeccompArch): Promise<SeccompFilter> {
  const path = join(await privateFolder(dir, "the sandbox's seccomp filter"), `filter-${arch}-${process.pid}.bpf`);
  await rm(path, { force: true });
  // `wx`: never through something planted at that name (a symlink) between the rm and the open
  const file = await open(path, "wx", 0o600);
  try {
    await file.writeFile(seccompBytes(seccompProgram(arch)));
    await file.sync();
  } finally {
    await file.close();
  }
  return { path, arch };
}

/**
 * The filter file for this machine, written once per process into `dir` (a private folder, 0700; the file 0600),
 * or why there is none (an architecture without a filter). A failure to write it rejects (and is tried again
 * next time): a sandbox that should have a filter never runs without one.
 */
export function seccompFilter(dir: string, nodeArch: string = process.arch): Promise<SeccompFilter> {
  const arch = seccompArch(nodeArch);
  if (!arch) return Promise.resolve({ problem: `no seccomp filter on ${nodeArch} (x86_64 and aarch64 only)` });
  const key = `${dir}\0${arch}`;
  let found = written.get(key);
  if (!found) {
    found = writeFilter(dir, arch);
    found.catch(() => written.delete(key));
    written.set(key, found);
  }
  return found;
}

/** The private folder the filter goes in (one per user, in the temp folder). */
export function seccompDir(tmpDir: string): string {
  return join(tmpDir, `acp-threads-seccomp-${process.getuid?.() ?? 0}`);
}

/** One line for doctor: what the filter blocks here, or why there is none. */
export function describeSeccomp(nodeArch: string = process.arch): string {
  const arch = seccompArch(nodeArch);
  return arch
    ? `seccomp (${arch}): unix sockets and TIOCSTI blocked`
    : `seccomp: none on ${nodeArch} (x86_64 and aarch64 only): unix sockets and TIOCSTI stay open`;
}

/**
 * `bwrapArgv` (bwrap and its arguments, with `--seccomp 3` in them) started with the filter file open on fd 3:
 * `sh -c 'exec "$@" 3<"$0"'`, the one way that works for every launch (child_process and node-pty alike: a pty
 * cannot pass an extra fd). `exec` replaces the shell, so the process (and its group) is bwrap's.
 */
export function withFilterFd(filter: string, bwrapArgv: readonly string[]): { file: string; args: string[] } {
  return { file: "/bin/sh", args: ["-c", 'exec "$@" 3<"$0"', filter, ...bwrapArgv] };
}

/** The arguments that make a (nested) bwrap load the filter on fd 3 and change nothing else: the agent's side of the egress bridge. */
export function filterOnlyArgs(): string[] {
  return ["--dev-bind", "/", "/", "--die-with-parent", "--seccomp", "3"];
}
