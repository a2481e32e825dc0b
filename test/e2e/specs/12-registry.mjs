/* global window -- used inside frame.evaluate, which runs in the webview */
// The ACP Registry in the browser (#22, #27): "Add agent…" lists the local test registry's agents (run.mjs
// starts it: test/host/registry-env.main.ts) with version, kind, licence and icon; installing one shows a
// progress notification and the agent then starts a thread from the new-thread picker; "Custom command line"
// has its own command field and never runs the task text. Two steps feed the new-thread panel a list as the host
// would send it (window.postMessage into the webview, like the host's own messages) to show what the picker does
// with it: nothing installed (the e2e host always has agents), and a list that arrives after the user's pick.
import { Composer, threadFrame } from "../pages/workbench.mjs";

export default async function ({ page, quick, step, shot }) {
  const toast = (text) => page.locator(".notification-toast", { hasText: text }).first();

  await step("Add agent… lists the registry's agents with version, kind and licence", async () => {
    // from a known state: no editor (the last spec leaves a thread panel, a webview, focused in the first window)
    await quick.run("View: Close All Editors");
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
    // the toast has settled (it fades in) once its Cancel button shows
    await toast("Downloading").getByRole("button", { name: "Cancel" }).waitFor({ timeout: 10000 });
    await page.waitForTimeout(400); // for the picture only: the toast's fade-in (nothing is asserted on time)
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
    await quick.run("View: Close All Editors"); // the next steps find the one new-thread panel they open
  });

  /** Posts a composer state into the new-thread panel, as the host does. */
  const feed = (frame, agents, agentId) =>
    frame.evaluate(
      ([agents, agentId]) =>
        window.postMessage({ type: "composer", state: { draft: { agents, agentId, folders: [] } } }, "*"),
      [agents, agentId],
    );
  const acp = (id, label, available = true) => ({ id, label, kind: "acp", available, hint: "npm i -g x" });
  const custom = { id: "exec:custom", label: "Custom command line", kind: "exec", available: true };

  await step("nothing installed: the picker says so, offers Add agent…, and preselects no command line", async () => {
    await quick.run("ACP Threads: Spawn coding agent");
    const frame = await threadFrame(page, "New thread");
    // the host's own lists first (the quick one, then doctor's), so the one fed here is the last
    await frame.locator('.cmp-draft[data-checked="true"]').waitFor({ state: "attached", timeout: 60000 });
    await feed(frame, [acp("codex", "Codex", false), acp("claude", "Claude Code", false), custom], "exec:custom");
    await frame.locator(".cmp-no-agent", { hasText: "No coding agent is installed" }).waitFor({ state: "visible" });
    await frame.locator("#agent-picker", { hasText: "Pick an agent" }).waitFor();
    if (!(await frame.locator("#send").isDisabled())) throw new Error("Send is enabled with no agent picked");
    await shot("66-no-agent-installed");
    await frame.locator("#add-agent").click();
    await quick.root.locator(".quick-input-title", { hasText: "Add agent" }).waitFor({ timeout: 20000 });
    await page.keyboard.press("Escape");
  });

  await step("a list that arrives after the user's pick keeps the pick", async () => {
    const frame = await threadFrame(page, "New thread");
    await feed(frame, [acp("one", "Agent One"), acp("two", "Agent Two"), custom], "one");
    await frame.locator("#agent-picker", { hasText: "Agent One" }).waitFor();
    await new Composer(frame).pickAgent("Agent Two");
    // doctor's versions arrive: the same list with versions, naming the agent the panel opened with
    await feed(
      frame,
      [{ ...acp("one", "Agent One"), detail: "1.0.0" }, { ...acp("two", "Agent Two"), detail: "2.0.0" }, custom],
      "one",
    );
    await frame.locator(".cmp-agent-menu [role=option]", { hasText: "2.0.0" }).waitFor({ state: "attached" });
    const label = await frame.locator("#agent-picker .cmp-agent-name").textContent();
    if (label !== "Agent Two") throw new Error(`the pick reverted to ${label}`);
    await shot("67-pick-kept");
  });
}
