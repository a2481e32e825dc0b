/**
 * What a thread panel's header was last sent (thread-panel.ts notes each message it posts): its title, usage
 * figure, agent, folder, status and login, and who answered the last permission request another client of the thread host
 * answered first, the files its "N files changed" rows name, the pickers it draws, the slash commands its box offers and the
 * images whose thumbnails it was sent, its tool cards' terminal output. The host suite compares it with the tab's.
 */
import type { HostMessage, PickerView } from "../webview/thread/protocol";

export interface PanelShown {
  title: string;
  usage: string;
  agent: string;
  /** The folder the header names (a new thread's: the one picked in its panel, #35). */
  cwd: string;
  status: string;
  login: string;
  resumable: boolean;
  sandboxed: boolean;
  /** Who answered the last permission request another client of the thread host answered first. */
  answeredBy: string;
  /** The option the last permission request resolved on the panel's card shows as taken ("": none, cancelled). */
  answeredOption: string;
  /** The first few files of each "N files changed" row last posted (the rows' `names`, in order). */
  changed: string[];
  /** The running turn's start the header's timer counts from (undefined: none sent). */
  since: number | undefined;
  /** The status's detail (why it failed). */
  detail: string;
  /** How many ops strips (#13) were posted. */
  ops: number;
  /** The mode, model and config pickers last posted (null: none yet). */
  pickers: PickerView | null;
  /** The slash commands the prompt box last offered (its `/` completion). */
  commands: string[];
  /** The images whose thumbnails were posted to the prompt box and the transcript's chips (their asset names). */
  thumbs: string[];
  /** The agents' terminals' output (its last SHOWN_TERMINAL_TAIL characters) and exit posted to the tool cards. */
  terminals: Record<string, { data: string; exit?: { exitCode: number | null; signal: string | null } }>;
}

/** The characters of a terminal's output noted (the last ones: its exit's neighbourhood). */
const SHOWN_TERMINAL_TAIL = 4096;

export const panelShown = (): PanelShown => ({
  title: "",
  usage: "",
  agent: "",
  cwd: "",
  status: "",
  login: "",
  resumable: false,
  sandboxed: false,
  answeredBy: "",
  answeredOption: "",
  changed: [],
  since: undefined,
  detail: "",
  ops: 0,
  pickers: null,
  commands: [],
  thumbs: [],
  terminals: {},
});

/** Notes what `m` (posted to the panel) changes in its header. */
export function noteShown(shown: PanelShown, m: HostMessage): void {
  if (m.type === "init")
    Object.assign(shown, {
      title: m.header.title,
      agent: m.header.agent,
      cwd: m.header.cwd,
      status: m.status,
      resumable: !!m.header.resumable,
      sandboxed: !!m.header.sandboxed,
      since: m.since,
      detail: "",
    });
  else if (m.type === "status")
    Object.assign(shown, {
      status: m.status,
      sandboxed: shown.sandboxed || !!m.sandboxed,
      since: m.since,
      detail: m.detail ?? "",
    });
  else if (m.type === "ops") shown.ops++;
  else if (m.type === "title") shown.title = m.title;
  else if (m.type === "draftFolder") shown.cwd = m.cwd;
  else if (m.type === "usage") shown.usage = m.text;
  else if (m.type === "login") shown.login = m.text + (m.action ? ` [${m.action}]` : "");
  else if (m.type === "permissionResolved") {
    shown.answeredOption = m.optionId ?? "";
    if (m.by) shown.answeredBy = m.by;
  } else if (m.type === "turnChanges") shown.changed = m.turns.flatMap((t) => t.names);
  else if (m.type === "pickers") shown.pickers = m.pickers;
  else if (m.type === "composer" && m.state.commands) shown.commands = m.state.commands.map((c) => c.name);
  else if (m.type === "thumbs") shown.thumbs.push(...Object.keys(m.thumbs));
  else if (m.type === "terminalOutput") {
    const t = (shown.terminals[m.terminalId] ??= { data: "" });
    t.data = (t.data + m.data).slice(-SHOWN_TERMINAL_TAIL);
    if (m.exit) t.exit = m.exit;
  }
}
