/** `recall install-skill [--codex] [--claude]`: copies skills/recall/SKILL.md where each agent looks for skills. */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { EXIT, type CliIO } from "../io";
import { bool, parseFlags } from "./flags";

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

export async function installSkill(io: CliIO, argv: string[]): Promise<number> {
  const p = parseFlags(argv, { codex: "bool", claude: "bool", help: "bool" });
  if (bool(p, "help")) {
    io.stdout.write("usage: acp-threads recall install-skill [--codex] [--claude]   (both when neither is given)\n");
    return EXIT.ok;
  }
  const skill = findSkill();
  if (!skill) {
    io.stderr.write("acp-threads recall install-skill: skills/recall/SKILL.md not found next to the CLI\n");
    return EXIT.error;
  }
  const home = io.env.HOME ?? homedir();
  const both = !bool(p, "codex") && !bool(p, "claude");
  const targets: string[] = [];
  if (both || bool(p, "codex"))
    targets.push(join(io.env.CODEX_HOME ?? join(home, ".codex"), "skills", "acp-threads-recall"));
  if (both || bool(p, "claude")) targets.push(join(home, ".claude", "skills", "acp-threads-recall"));
  for (const dir of targets) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(skill, join(dir, "SKILL.md"));
    io.stdout.write(`installed ${join(dir, "SKILL.md")}\n`);
  }
  return EXIT.ok;
}
