// An agent's terminal/* request shows as a real integrated terminal (the stdio fake agent runs a command).
import { spawnFromPalette, threadFrame } from "../pages/workbench.mjs";

export default async function ({ page, quick, step, shot }) {
  await step("an agent's terminal is visible as an integrated terminal", async () => {
    await spawnFromPalette(quick, "Fake agent", "terminal echo e2e-terminal-output");
    // the agent did not ask first: under approve-reads the engine asks before the command runs
    const asking = await threadFrame(page, "terminal echo");
    await asking.locator(".permission:not(.answered) button.perm-option.allow").first().click({ timeout: 30000 });
    const rows = page.locator(".terminal-wrapper .xterm-rows", { hasText: "e2e-terminal-output" }).first();
    await rows.waitFor({ timeout: 30000 });
    const f2 = await threadFrame(page, "terminal echo");
    await f2.locator(".msg.agent", { hasText: "exit 0" }).waitFor({ timeout: 30000 });
    await shot("07-terminal");
  });
}
