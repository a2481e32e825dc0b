// Issue 23's proofs in the browser: the protocol features as a user meets them, each step screenshotted
// (test-results/screenshots/08-*). Needs 01-workbench. The agent is "Protocol demo": the stdio fake agent with
// steering and session/fork advertised (run.mjs).
//   elicitation, form mode: "Answer" / "Decline", one step per field with its default, validation of a number
//   out of range, the answer reaching the agent; url mode: the host is named and nothing opens without consent;
//   steering: a follow-up queued while the agent works, "Send now" → "steered into the running turn";
//   "Fork from here" → a new thread with the conversation up to that message, continued by a prompt;
//   subagents: the calls a subagent made, nested collapsed under its Task card, expanded on click.
import { spawnFromPalette, threadFrame } from "../pages/workbench.mjs";

const AGENT = "Protocol demo";
const idle = (frame) => frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 60000 });

export default async function ({ page, quick, step, shot }) {
  const title = quick.root.locator(".quick-input-title");
  const message = quick.root.locator(".quick-input-message");
  const box = quick.root.locator("input.input").first();

  await step(
    "elicitation form: Answer, a step per field with its default, validation, the answer reaches the agent",
    async () => {
      const frame = await spawnFromPalette(quick, AGENT, "elicit");
      await title.filter({ hasText: "Who is asking?" }).waitFor({ timeout: 30000 });
      await quick.root.locator(".monaco-list-row", { hasText: "Answer" }).first().waitFor();
      await shot("08-elicitation-1-answer-or-decline");
      await quick.pick("Answer");
      await title.filter({ hasText: "(1/2)" }).waitFor({ timeout: 10000 });
      if ((await box.inputValue()) !== "Ada")
        throw new Error(`the name step does not hold the default: ${await box.inputValue()}`);
      await shot("08-elicitation-2-name-default");
      await quick.answer("(1/2)", "Grace");
      await title.filter({ hasText: "(2/2)" }).waitFor({ timeout: 10000 });
      await box.fill("12");
      await message.filter({ hasText: /9/ }).waitFor({ timeout: 10000 });
      await shot("08-elicitation-3-count-out-of-range");
      await page.keyboard.press("Enter");
      // an invalid value is not taken: the step stays open
      await title.filter({ hasText: "(2/2)" }).waitFor({ timeout: 5000 });
      await quick.answer("(2/2)", "4");
      await frame.locator(".msg.agent", { hasText: 'elicitation: accept {"name":"Grace","count":4}' }).waitFor({
        timeout: 30000,
      });
      await idle(frame);
      await shot("08-elicitation-4-answered");
    },
  );

  await step(
    "elicitation url: the host is named, nothing opens without consent; Decline reaches the agent",
    async () => {
      const frame = await spawnFromPalette(quick, AGENT, "elicit url");
      await title.filter({ hasText: "login.example.com" }).waitFor({ timeout: 30000 });
      await quick.root.locator(".monaco-list-row", { hasText: "Open login.example.com" }).first().waitFor();
      await shot("08-elicitation-5-url-consent");
      await quick.pick("Decline");
      await frame.locator(".msg.agent", { hasText: "elicitation: decline" }).waitFor({ timeout: 30000 });
      await idle(frame);
      await shot("08-elicitation-6-url-declined");
    },
  );

  let steerFrame;
  await step(
    "steering: a follow-up queued while the agent works, Send now steers it into the running turn",
    async () => {
      steerFrame = await spawnFromPalette(quick, AGENT, "sleep 60000");
      await steerFrame.locator(`#status[data-status="working"]`).waitFor({ timeout: 30000 });
      await steerFrame.locator(".msg.agent", { hasText: "sleeping" }).waitFor({ timeout: 30000 });
      await steerFrame.locator("#input").fill("also look at the tests");
      await steerFrame.locator("#input").press("Enter");
      const queued = steerFrame.locator(".cmp-queued", { hasText: "also look at the tests" });
      await queued.waitFor();
      await shot("08-steer-1-queued");
      await queued.locator(".cmp-steer").click();
      await steerFrame
        .locator(".msg.user.steered", { hasText: "also look at the tests" })
        .locator(".who", { hasText: "steered into the running turn" })
        .waitFor({ timeout: 30000 });
      await steerFrame
        .locator(".msg.agent", { hasText: "steered: also look at the tests" })
        .waitFor({ timeout: 30000 });
      await idle(steerFrame);
      await steerFrame.locator(".cmp-queue").waitFor({ state: "hidden" });
      await shot("08-steer-2-steered");
    },
  );

  await step(
    "Fork from here: a new thread with the conversation up to that message, continued by a prompt",
    async () => {
      const first = steerFrame.locator(".msg.agent", { hasText: "sleeping" }).first();
      await first.hover();
      await shot("08-fork-1-message-actions");
      await first.locator(".msg-fork").click();
      const fork = await threadFrame(page, "Fork of");
      await fork.locator(".msg.user", { hasText: "sleep 60000" }).waitFor({ timeout: 30000 });
      await fork.locator(".msg.agent", { hasText: "sleeping" }).waitFor();
      if (await fork.locator(".msg.user", { hasText: "also look at the tests" }).count())
        throw new Error("the fork holds a message after the one it was forked at");
      await page
        .locator(".notifications-toasts", { hasText: "Forked at message 2" })
        .first()
        .waitFor({ timeout: 20000 });
      await shot("08-fork-2-new-thread");
      await fork.locator("#input").fill("carry on from the fork");
      await fork.locator("#input").press("Enter");
      await fork.locator(".msg.agent", { hasText: "echo:" }).last().waitFor({ timeout: 60000 });
      await idle(fork);
      await shot("08-fork-3-continued");
    },
  );

  await step("subagents: a subagent's calls nested under its Task card, collapsed, expanded on click", async () => {
    const frame = await spawnFromPalette(quick, AGENT, "subagent");
    const toggle = frame.locator(".subagent-toggle").first();
    await toggle.waitFor({ timeout: 30000 });
    await idle(frame);
    if ((await toggle.getAttribute("aria-expanded")) !== "false") throw new Error("the subagent group starts open");
    await shot("08-subagent-1-collapsed");
    await toggle.click();
    const calls = frame.locator(".subagent-calls .tool");
    await calls.first().waitFor({ timeout: 10000 });
    if ((await calls.count()) < 2) throw new Error(`expected the subagent's two calls, got ${await calls.count()}`);
    await shot("08-subagent-2-expanded");
  });
}
