// The workbench opens with our activity-bar container, and first activation offers to import history.
export default async function ({ page, step, shot, serverUrl, ws }) {
  await step("workbench loads with the ACP Threads container", async () => {
    await page.goto(`${serverUrl}/?folder=${encodeURIComponent(ws)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    await page.getByRole("tab", { name: /ACP Threads/ }).waitFor({ timeout: 60000 });
    await page.getByRole("tab", { name: /ACP Threads/ }).click();
    await page.locator(".pane-header", { hasText: "Sessions" }).waitFor();
    await shot("01-workbench");
  });

  await step("first activation offers to import Codex history, and the import runs", async () => {
    const offer = page.locator(".notification-toast", { hasText: "existing Codex and Claude Code sessions" }).first();
    await offer.waitFor({ timeout: 30000 });
    await shot("01b-import-offer");
    await offer.getByRole("button", { name: "Import" }).click();
    await page.locator(".notification-toast", { hasText: "Recall imported" }).first().waitFor({ timeout: 60000 });
  });
}
