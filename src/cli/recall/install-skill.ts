/** `recall install-skill [--codex] [--claude]`: copies skills/recall/SKILL.md where each agent looks for skills. */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { command } from "../command";
import { EXIT } from "../io";

/** The SKILL.md shipped next to the bundle (dist/cli.js → ../skills) or in the source tree. */
export function findSkill(): string | undefined {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "skills", "recall", "SKILL.md");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

export const installSkill = command(
  {
    name: "recall install-skill",
    synopsis: "[--codex] [--claude]",
    flags: {
      codex: { type: "boolean", help: "install for Codex ($CODEX_HOME/skills)" },
      claude: { type: "boolean", help: "install for Claude Code (~/.claude/skills)" },
    },
    notes: "Both when neither is given.",
  },
  ({ io, flags }) => {
    const skill = findSkill();
    if (!skill) {
      io.stderr.write("acp-threads recall install-skill: skills/recall/SKILL.md not found next to the CLI\n");
      return EXIT.error;
    }
    const home = io.env.HOME ?? homedir();
    const both = !flags.codex && !flags.claude;
    const targets: string[] = [];
    if (both || flags.codex)
      targets.push(join(io.env.CODEX_HOME ?? join(home, ".codex"), "skills", "acp-threads-recall"));
    if (both || flags.claude) targets.push(join(home, ".claude", "skills", "acp-threads-recall"));
    for (const dir of targets) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(skill, join(dir, "SKILL.md"));
      io.stdout.write(`installed ${join(dir, "SKILL.md")}\n`);
    }
    return EXIT.ok;
  },
  "copy the recall skill where Codex and Claude Code look for skills",
);
