/**
 * Named keys (tmux-style) to the bytes a terminal sends for them: `Enter`, `Tab`, `Escape`, arrows, `C-c`, `M-x`...
 * A name we do not know is sent as literal text, so `sendKeys(["ls", "Enter"])` types `ls` and presses Enter.
 */
const NAMED: Record<string, string> = {
  enter: "\r",
  return: "\r",
  tab: "\t",
  btab: "\x1b[Z",
  escape: "\x1b",
  esc: "\x1b",
  space: " ",
  backspace: "\x7f",
  bspace: "\x7f",
  delete: "\x1b[3~",
  dc: "\x1b[3~",
  insert: "\x1b[2~",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  pageup: "\x1b[5~",
  pgup: "\x1b[5~",
  pagedown: "\x1b[6~",
  pgdn: "\x1b[6~",
  f1: "\x1bOP",
  f2: "\x1bOQ",
  f3: "\x1bOR",
  f4: "\x1bOS",
};

/** The bytes for one key name, or `undefined` when it is not a key name. */
export function keyBytes(name: string): string | undefined {
  const named = NAMED[name.toLowerCase()];
  if (named !== undefined) return named;
  const ctrl = /^(?:C-|\^)(.)$/i.exec(name);
  if (ctrl) return controlChar(ctrl[1]!);
  const meta = /^M-(.+)$/.exec(name);
  if (meta) {
    const inner = keyBytes(meta[1]!) ?? (meta[1]!.length === 1 ? meta[1] : undefined);
    return inner === undefined ? undefined : `\x1b${inner}`;
  }
  return undefined;
}

function controlChar(ch: string): string | undefined {
  const upper = ch.toUpperCase();
  const code = upper.charCodeAt(0);
  if (upper === "?") return "\x7f";
  // C-@ .. C-_ map to 0x00 .. 0x1f (C-a is 0x01, C-[ is ESC).
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code - 0x40);
  if (ch === " ") return "\x00";
  return undefined;
}

/** Concatenated bytes for a list of keys; unknown names are literal text. */
export function encodeKeys(keys: readonly string[]): string {
  return keys.map((k) => keyBytes(k) ?? k).join("");
}

/**
 * What a key means for a run on pipes, where there is no terminal to turn C-c into a signal:
 * C-c / C-\ / C-z become signals to the process group and C-d closes stdin.
 */
export function pipeKeyAction(name: string): { signal: NodeJS.Signals } | { endInput: true } | undefined {
  switch (keyBytes(name)) {
    case "\x03":
      return { signal: "SIGINT" };
    case "\x1c":
      return { signal: "SIGQUIT" };
    case "\x1a":
      return { signal: "SIGTSTP" };
    case "\x04":
      return { endInput: true };
    default:
      return undefined;
  }
}
