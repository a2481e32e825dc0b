// The ACP Registry in the browser (#22, #27): "Add agent…" lists the local test registry's agents (run.mjs
// starts it: test/host/registry-env.main.ts) with version, kind, licence and icon; installing one shows a
// progress notification and the agent then starts a thread from the new-thread picker; "Custom command line"
// has its own command field and never runs the task text.
import { Composer, threadFrame } from "../pages/workbench.mjs";

export default async function ({ page, quick, step, shot }) {
  const toast = (text) => page.locator(".notification-toast", { hasText: text }).first();

  await step("Add agent… lists the registry's agents with version, kind and licence", async () => {
    await quick.run("ACP Threads: Add agent…");
    const row = quick.root.locator(".monaco-list-row", { hasText: "Fake Coder" }).first();
    await row.waitFor({ timeout: 30000 });
    await row.filter({ hasText: "1.2.0 · binary · MIT" }).waitFor();
    await quick.root.locator(".monaco-list-row", { hasText: "2.0.1 · npx · Apache-2.0" }).waitFor();
    await quick.root.locator(".monaco-list-row", { hasText: "0.4.0 · uvx · MIT" }).waitFor();
    await shot("60-add-agent-picker");
  });

  await step("installing shows its phases in a progress notification, then says it is installed", async () => {
    await quick.pick("Fake Coder");
    await toast("Installing Fake Coder 1.2.0").waitFor({ timeout: 20000 });
    await toast("Downloading").waitFor({ timeout: 10000 });
    await shot("61-add-agent-progress");
    await toast("Fake Coder 1.2.0 is installed").waitFor({ timeout: 60000 });
    await shot("62-add-agent-installed");
  });

  await step("the installed agent is in the new-thread picker and answers", async () => {
    await quick.run("ACP Threads: Spawn coding agent");
    const frame = await threadFrame(page, "New thread");
    await frame.locator("#agent-picker").click();
    await frame.locator(".cmp-agent-menu [role=option]", { hasText: "1.2.0 · from the registry" }).waitFor();
    await frame.locator(".cmp-agent-menu [role=option]", { hasText: "Add agent…" }).waitFor();
    await shot("63-picker-installed-agent");
    await frame.locator(".cmp-agent-menu [role=option]", { hasText: "Fake Coder" }).first().click();
    const composer = new Composer(frame);
    await composer.type("hello from the registry");
    await composer.send();
    await frame.locator(".msg.agent", { hasText: "hello from the registry" }).first().waitFor({ timeout: 60000 });
    await shot("64-registry-agent-answer");
  });

  await step("Custom command line has its own command field; the task text is never run", async () => {
    await quick.run("ACP Threads: Spawn coding agent");
    const frame = await threadFrame(page, "New thread");
    const composer = new Composer(frame);
    await composer.pickAgent("Custom command line");
    await frame.locator("#exec-command").waitFor({ state: "visible" });
    await composer.type("explain what src/app.js does");
    await composer.send();
    await frame.locator(".cmp-notice", { hasText: "Type the command line" }).waitFor();
    await shot("65-custom-command-field");
  });
}
