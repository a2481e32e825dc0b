/**
 * The seccomp filter's program (#34): its bytes decoded instruction by instruction, and a tiny classic-BPF
 * interpreter that runs it against system-call records for x86_64 and aarch64 (allowed, denied, a foreign
 * architecture, the x32 bit). The real runs under bubblewrap: hostile-sandbox.test.ts (a unix socket) and
 * plan.test.ts (TIOCSTI).
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  BPF,
  describeSeccomp,
  SECCOMP_ARCHES,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  seccompArch,
  seccompBytes,
  seccompFilter,
  seccompProgram,
  type SeccompArch,
} from "../../../../src/core/sandbox/seccomp";
import { describeAvailability } from "../../../../src/core/sandbox/tool";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const DENY = SECCOMP_RET_ERRNO | 1;
const ALLOW = SECCOMP_RET_ALLOW;

/** struct seccomp_data, little-endian: nr, arch, instruction_pointer, args[6]. */
function record(nr: number, arch: number, args: bigint[] = []): Buffer {
  const b = Buffer.alloc(64);
  b.writeInt32LE(nr | 0, 0);
  b.writeUInt32LE(arch >>> 0, 4);
  args.forEach((a, i) => b.writeBigUInt64LE(a, 16 + i * 8));
  return b;
}

/** Runs classic BPF `bytes` (only what a seccomp program may use: ld abs word, jeq/jge k, ret k) on `data`. */
function run(bytes: Buffer, data: Buffer): number {
  let a = 0;
  for (let pc = 0, steps = 0; steps < 4096; steps++) {
    assert.ok(pc * 8 < bytes.length, `pc ${pc} runs off the end`);
    const code = bytes.readUInt16LE(pc * 8);
    const jt = bytes.readUInt8(pc * 8 + 2);
    const jf = bytes.readUInt8(pc * 8 + 3);
    const k = bytes.readUInt32LE(pc * 8 + 4);
    pc++;
    if (code === BPF.LD_ABS) {
      assert.ok(k % 4 === 0 && k + 4 <= 64, `aligned load inside seccomp_data: ${k}`);
      a = data.readUInt32LE(k);
    } else if (code === BPF.JEQ) pc += a === k ? jt : jf;
    else if (code === BPF.JGE) pc += a >= k ? jt : jf;
    else if (code === BPF.RET) return k;
    else assert.fail(`unexpected opcode 0x${code.toString(16)}`);
  }
  return assert.fail("no return");
}

const ALL: SeccompArch[] = ["x86_64", "aarch64"];

test("the program's bytes, instruction by instruction (x86_64)", () => {
  const bytes = seccompBytes(seccompProgram("x86_64"));
  const rows: Array<[number, number, number, number]> = [];
  for (let i = 0; i < bytes.length; i += 8)
    rows.push([bytes.readUInt16LE(i), bytes.readUInt8(i + 2), bytes.readUInt8(i + 3), bytes.readUInt32LE(i + 4)]);
  assert.deepEqual(rows, [
    [0x20, 0, 0, 4], // A = arch
    [0x15, 0, 11, 0xc000003e], // not x86_64: deny
    [0x20, 0, 0, 0], // A = nr
    [0x35, 9, 0, 0x40000000], // x32: deny
    [0x15, 2, 0, 41], // socket: its check
    [0x15, 4, 0, 16], // ioctl: its check
    [0x06, 0, 0, 0x7fff0000], // allow
    [0x20, 0, 0, 16], // A = args[0] low
    [0x15, 4, 0, 1], // AF_UNIX: deny
    [0x06, 0, 0, 0x7fff0000],
    [0x20, 0, 0, 24], // A = args[1] low
    [0x15, 1, 0, 0x5412], // TIOCSTI: deny
    [0x06, 0, 0, 0x7fff0000],
    [0x06, 0, 0, 0x00050001], // EPERM
  ]);
  assert.equal(seccompBytes(seccompProgram("aarch64")).length, 13 * 8, "aarch64 has no x32 check");
});

for (const arch of ALL) {
  test(`the filter on ${arch}: unix sockets and TIOCSTI denied, the rest allowed`, () => {
    const t = SECCOMP_ARCHES[arch];
    const bytes = seccompBytes(seccompProgram(arch));
    const on = (nr: number, args: bigint[] = []) => run(bytes, record(nr, t.audit, args));
    assert.equal(on(t.socket, [1n, 1n, 0n]), DENY, "socket(AF_UNIX, SOCK_STREAM)");
    assert.equal(on(t.socket, [1n, 0x80801n, 0n]), DENY, "socket(AF_UNIX, SOCK_STREAM|CLOEXEC|NONBLOCK)");
    assert.equal(on(t.socket, [2n, 1n, 0n]), ALLOW, "socket(AF_INET)");
    assert.equal(on(t.socket, [10n, 2n, 0n]), ALLOW, "socket(AF_INET6)");
    assert.equal(on(t.socket, [0x1_0000_0002n]), ALLOW, "only the low 32 bits of the family count (AF_INET)");
    assert.equal(on(t.ioctl, [0n, 0x5412n]), DENY, "ioctl(TIOCSTI)");
    assert.equal(on(t.ioctl, [7n, 0xffffffff_00005412n]), DENY, "TIOCSTI with garbage in the high half");
    assert.equal(on(t.ioctl, [0n, 0x5413n]), ALLOW, "ioctl(TIOCGWINSZ)");
    assert.equal(on(t.ioctl, [0n, 0x5401n]), ALLOW, "ioctl(TCGETS)");
    const socketpair = arch === "x86_64" ? 53 : 199;
    assert.equal(on(socketpair, [1n, 1n, 0n]), ALLOW, "socketpair(AF_UNIX) stays (child stdio)");
    for (const nr of [0, 1, 2, 56, 59, 220, 221]) assert.equal(on(nr, [1n, 0x5412n]), ALLOW, `syscall ${nr}`);
  });
}

test("a foreign architecture is refused whole, and x32 numbers on x86_64", () => {
  const x86 = seccompBytes(seccompProgram("x86_64"));
  const arm = seccompBytes(seccompProgram("aarch64"));
  const I386 = 0x40000003;
  const ARM = 0x40000028;
  assert.equal(run(x86, record(102, I386, [1n])), DENY, "i386 socketcall");
  assert.equal(run(x86, record(39, I386)), DENY, "i386 getpid");
  assert.equal(run(x86, record(SECCOMP_ARCHES.aarch64.socket, SECCOMP_ARCHES.aarch64.audit, [1n])), DENY);
  assert.equal(run(arm, record(41, SECCOMP_ARCHES.x86_64.audit, [1n])), DENY, "x86_64 on aarch64");
  assert.equal(run(arm, record(281, ARM, [1n])), DENY, "arm32 socket");
  assert.equal(run(x86, record(0x40000000 + 41, 0xc000003e, [2n])), DENY, "x32 socket(AF_INET)");
  assert.equal(run(x86, record(0x40000000 + 39, 0xc000003e)), DENY, "x32 getpid");
  assert.equal(run(x86, record(0x3fffffff, 0xc000003e)), ALLOW, "just below the x32 bit");
});

test("the architecture: x64 and arm64 have a filter, others none (and doctor says so)", () => {
  assert.equal(seccompArch("x64"), "x86_64");
  assert.equal(seccompArch("arm64"), "aarch64");
  assert.equal(seccompArch("ia32"), undefined);
  assert.equal(describeSeccomp("x64"), "seccomp (x86_64): unix sockets and TIOCSTI blocked");
  assert.match(describeSeccomp("riscv64"), /^seccomp: none on riscv64 .*stay open/);
  const bwrap = { available: true, tool: { kind: "bwrap", path: "/usr/bin/bwrap" } } as const;
  assert.match(
    describeAvailability(bwrap, [], "arm64"),
    /; seccomp \(aarch64\): unix sockets and TIOCSTI blocked; egress: all$/,
  );
  assert.match(describeAvailability(bwrap, [], "riscv64"), /; seccomp: none on riscv64/);
  const seatbelt = { available: true, tool: { kind: "seatbelt", path: "/usr/bin/sandbox-exec" } } as const;
  assert.doesNotMatch(describeAvailability(seatbelt, [], "arm64"), /seccomp/, "macOS: Seatbelt, no seccomp");
});

test("the filter file: written once per process, 0600 in a 0700 folder; another arch has none", () =>
  withTmpDir("sbx-seccomp-", async (dir) => {
    const at = join(dir, "private");
    const a = await seccompFilter(at, "x64");
    const b = await seccompFilter(at, "x64");
    assert.equal(a.path, b.path);
    assert.equal(statSync(a.path!).mode & 0o777, 0o600);
    assert.equal(statSync(at).mode & 0o777, 0o700);
    assert.equal(statSync(a.path!).size, 14 * 8);
    assert.deepEqual(await seccompFilter(at, "ppc64"), {
      problem: "no seccomp filter on ppc64 (x86_64 and aarch64 only)",
    });
  }));

test("hostile: a filter folder planted open to others (another user could swap the file) is refused", () =>
  withTmpDir("sbx-seccomp-", async (dir) => {
    const at = join(dir, "planted");
    mkdirSync(at, { mode: 0o777 });
    chmodSync(at, 0o777);
    await assert.rejects(
      seccompFilter(at, "x64"),
      /seccomp filter: .*planted must be a folder of this user's with mode 0700/,
    );
    assert.deepEqual(readdirSync(at), [], "nothing written into it");
  }));
