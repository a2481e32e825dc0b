// Worktrees and best of N in the editor (#25 items 1 and 3). Needs no other spec. The workspace becomes a git
// repository for this spec (one commit of README.md and notes.txt) and stops being one at its end. "ACP Threads: Best
// of N…" from the palette opens a new thread's panel with "best of N" checked; its prompt box takes the task (#37):
// the fake agent twice, a prompt that reports token usage, a check command; the compare view shows both candidates
// done with their check passed; the Sessions tree shows them under "Worktrees" with their state. One is discarded
// through the view ("Discard others" after "Keep"); the kept one, given a two-hunk change of notes.txt, is applied
// from the palette and the workspace's notes.txt shows each applied hunk under review (Keep | Undo | applied from
// worktree …); then it goes too.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Composer, findFrame, threadFrame, until } from "../pages/workbench.mjs";

const git = (cwd, ...args) =>
  execFileSync("git", ["-c", "user.email=e2e@example.com", "-c", "user.name=e2e", ...args], { cwd, encoding: "utf8" });

const NOTES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
  .map((l) => `${l}\n`)
  .join("");

export default async function ({ page, quick, step, shot, ws }) {
  writeFileSync(path.join(ws, "notes.txt"), NOTES);
  git(ws, "init", "-q", "-b", "main");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "e2e seed");
  let frame;
  try {
    await step("Best of N…: two runs of the fake agent, each in its own worktree, compared", async () => {
      // from a known state (CI once lost the wizard's input box to the last spec's review editors and comments)
      await quick.run("View: Close All Editors");
      await quick.run("ACP Threads: Best of N…");
      // the task in a new thread's prompt box, its "best of N" box checked (#37)
      const panel = await threadFrame(page, "New thread");
      await panel.locator("#draft-bestof:checked").waitFor({ timeout: 15000 });
      const composer = new Composer(panel);
      await composer.pickAgent("Fake agent");
      await composer.type("cost 1200 300 0.02");
      // the panel's "sandboxed" box is the sandbox step: unticked by hand (the candidates run as before here; the
      // sandbox's own tests are the host and interop suites)
      const sandboxed = panel.locator("#draft-sandbox");
      await sandboxed.click();
      if (await sandboxed.isChecked()) await sandboxed.click();
      await shot("29-best-of-task");
      if ((await panel.locator("#send .label").textContent()) !== "Best of N…")
        throw new Error("the send button should read 'Best of N…'");
      await composer.send();
      // the wizard's agent list has the panel's agent checked
      await quick.root.getByText("1 Selected").waitFor({ timeout: 20000 });
      await quick.root.locator(".monaco-list-row", { hasText: "Fake agent" }).first().waitFor({ timeout: 20000 });
      await quick.root.getByRole("button", { name: "OK" }).click();
      await quick.answer("runs per agent", "2");
      await quick.answer("check command", "git diff --quiet");
      frame = await findFrame(page, async (f) => (await f.locator("#candidates").count()) > 0, "compare view", 30000);
      await until(
        "both candidates to be done",
        async () => /all done/.test((await frame.locator("#summary").textContent()) ?? ""),
        120000,
      );
      const cards = frame.locator(".candidate.status-done");
      if ((await cards.count()) !== 2) throw new Error(`expected 2 finished candidates, got ${await cards.count()}`);
      if ((await frame.locator(".facts .pass").count()) !== 2) throw new Error("both checks should pass");
      // the cost each agent reported; a tie of two candidates that changed nothing has a "fastest", not a "best";
      // Apply is off (with its reason) on a candidate that changed no files
      if ((await frame.locator(".facts .cost", { hasText: "$0.02" }).count()) !== 2)
        throw new Error("each card should show the $0.02 its agent reported");
      if ((await frame.locator(".badge.fastest").count()) !== 1 || (await frame.locator(".badge.best").count()) !== 0)
        throw new Error("two equal candidates: one 'fastest' badge and no 'best'");
      const apply = frame.locator('button[data-action="apply"]').first();
      if (!(await apply.isDisabled()) || !/changed no files/.test((await apply.getAttribute("title")) ?? ""))
        throw new Error("Apply should be disabled with a tooltip on a candidate that changed no files");
      await shot("30-best-of-compare");
    });

    await step("the Sessions tree groups the candidates under Worktrees with their state", async () => {
      await quick.run("Focus on Sessions View");
      const group = page.locator(".monaco-list-row", { hasText: "Worktrees" }).first();
      await group.waitFor({ timeout: 20000 });
      const base = path.basename(ws);
      await until(
        "two worktree rows with their state",
        async () =>
          (await page
            .locator(".monaco-list-row", { hasText: `${base} ·` })
            .filter({ hasText: "no changes" })
            .count()) >= 2,
        30000,
      );
      await shot("31-worktree-group");
    });

    await step("Keep one, Discard others from the compare view", async () => {
      const tab = page.locator(".tab", { hasText: "Best of N" }).first();
      await tab.click();
      await frame.locator(".candidate").first().locator('button[data-action="keep"]').click();
      await frame.locator(".candidate").first().locator('button[data-action="discardOthers"]').click();
      await page.getByRole("button", { name: "Discard 1" }).click({ timeout: 15000 });
      await until(
        "the other candidate to be discarded",
        async () => (await frame.locator(".badge.outcome", { hasText: "discarded" }).count()) === 1,
        30000,
      );
      // the discarded candidate leaves the Worktrees group of the Sessions tree (its thread stays, as a thread)
      await until(
        "one worktree row left in the Sessions tree",
        async () => (await page.locator(".monaco-list-row", { hasText: `${path.basename(ws)} ·` }).count()) === 1,
        30000,
      );
      await shot("32-best-of-discarded");
    });

    await step(
      "Apply the kept worktree: its hunks are under review in the workspace (Keep | Undo | applied from worktree)",
      async () => {
        const kept = git(ws, "worktree", "list", "--porcelain")
          .split("\n")
          .filter((l) => l.startsWith("worktree ") && l.slice(9) !== ws)
          .map((l) => l.slice(9))[0];
        if (!kept) throw new Error("the kept candidate's worktree is gone");
        // what the agent would have changed there: two hunks of notes.txt
        writeFileSync(
          path.join(kept, "notes.txt"),
          NOTES.replace("two", "two, from the agent").replace("nine", "nine, from the agent"),
        );
        await quick.run("ACP Threads: Apply Worktree to Workspace");
        await page.getByRole("button", { name: "Apply", exact: true }).click({ timeout: 20000 });
        await until(
          "notes.txt applied",
          async () => readFileSync(path.join(ws, "notes.txt"), "utf8").includes("from the agent"),
          30000,
        );
        // open the workspace's notes.txt (quick open from the palette widget: Ctrl+P would reach the print dialog)
        await page.keyboard.press("F1");
        await quick.root.waitFor({ state: "visible", timeout: 5000 });
        await quick.root.locator("input.input").first().fill("notes.txt");
        await quick.root.locator(".monaco-list-row", { hasText: "notes.txt" }).first().waitFor({ timeout: 20000 });
        await page.keyboard.press("Enter");
        await page
          .locator(".tab", { hasText: /^notes\.txt$/ })
          .first()
          .waitFor({ timeout: 15000 });
        await page
          .locator(".codelens-decoration", { hasText: "applied from worktree" })
          .first()
          .waitFor({ timeout: 30000 });
        if ((await page.locator(".codelens-decoration", { hasText: "applied from worktree" }).count()) !== 2)
          throw new Error("each of the two applied hunks should carry its Keep | Undo lens");
        await shot("33-apply-review");
      },
    );
  } finally {
    rmSync(path.join(ws, "notes.txt"), { force: true });
    // the kept worktree goes too, then the workspace stops being a repository (later specs expect none)
    for (const line of git(ws, "worktree", "list", "--porcelain").split("\n"))
      if (line.startsWith("worktree ") && line.slice(9) !== ws) rmSync(line.slice(9), { recursive: true, force: true });
    rmSync(path.join(ws, ".git"), { recursive: true, force: true });
  }
}
