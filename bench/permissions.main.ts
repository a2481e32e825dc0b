/**
 * Permission decision bench (#33): what one decision costs per request now that every effect goes through the
 * rules, the outside-the-workspace check and the policy (permission-decision.ts), with 200 user rules on disk and a
 * workspace rules file. Baseline in the same run: PathGuard.check of the same path, which every fs effect already
 * paid before. Also the pure rule match over 1,000 rules. Figures are medians; no goal is asserted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decidePermission } from "../src/core/acp/permission-decision";
import { matchRules, type ScopedRule } from "../src/core/acp/permission-rules";
import { PathGuard } from "../src/core/acp/path-guard";
import { PermissionStore } from "../src/core/acp/permission-store";

async function time(fn: () => Promise<unknown> | unknown, runs = 2_000): Promise<number> {
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]! * 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-perm-"));
  try {
    const ws = join(dir, "ws");
    mkdirSync(join(ws, ".acp-threads"), { recursive: true });
    mkdirSync(join(ws, "src"));
    writeFileSync(join(ws, "src", "a.ts"), "x");
    writeFileSync(
      join(ws, ".acp-threads", "permissions.json"),
      JSON.stringify({ rules: ['deny edit "**/.env"', 'ask read "**/*.pem"'] }),
    );
    const store = new PermissionStore(join(dir, "home"));
    for (let i = 0; i < 200; i++) {
      await store.remember({ agentId: `agent-${i % 4}`, kind: "execute", key: `npm run task-${i}`, scope: ws });
    }
    const guard = new PathGuard([ws]);
    const path = join(ws, "src", "a.ts");
    const toolCall = { toolCallId: "r", kind: "read" as const, locations: [{ path }] };
    const input = { store, agentId: "agent-1", workspace: ws, policy: "approve-reads" as const, guard, cwd: ws };
    const decision = await time(() => decidePermission({ ...input, kind: "read", toolCall }));
    const command = await time(() =>
      decidePermission({
        ...input,
        kind: "execute",
        toolCall: { toolCallId: "x", kind: "execute", rawInput: { command: "npm run task-199" } },
      }),
    );
    const baseline = await time(() => guard.check(path));
    console.log(`one decision, a read under approve-reads (202 rules on disk): ${decision.toFixed(1)} µs`);
    console.log(`one decision, an execute matching the 200th rule: ${command.toFixed(1)} µs`);
    console.log(`  baseline PathGuard.check of the same path (paid before too): ${baseline.toFixed(1)} µs`);

    const rules: ScopedRule[] = Array.from({ length: 1_000 }, (_, i) => ({
      effect: i % 10 === 0 ? "deny" : "allow",
      kind: i % 2 ? "execute" : "edit",
      pattern: i % 2 ? `npm run t${i} *` : `/ws/dir${i}/**`,
      agentId: "*",
      scope: "*",
    }));
    const target = { agentId: "a", kind: "edit", paths: ["/ws/dir998/x.ts"], outside: [] };
    const pure = await time(() => matchRules(rules, target, "/ws"), 500);
    console.log(`matchRules over 1,000 rules (an edit matching the last path rule): ${pure.toFixed(1)} µs`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().then(undefined, (err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
