/** The agent CLIs the editor offers to run in a terminal (exec mode), plus any command line. */
import { EXEC_PRESETS } from "../core/exec";

export const EXEC_CHOICES = [
  ...EXEC_PRESETS.map((p) => ({
    id: p.id,
    label: p.displayName,
    detail: `${p.command} ${p.modeArgs({}).join(" ")} "<task>"`,
  })),
  { id: "custom", label: "Custom command line", detail: "any command, run in a terminal you can type into" },
] as const satisfies readonly { id: string; label: string; detail: string }[];
