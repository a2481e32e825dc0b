/**
 * Interfaces the host fills. The CLI backs them with the file system and stdin; the extension backs them
 * with VS Code (open documents, WorkspaceEdit, integrated terminals, inline prompts). The engine never
 * knows which.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Disposable } from "./lifecycle";

/** File access for `fs/read_text_file` / `fs/write_text_file`, after the engine has checked the path. */
export interface WorkspaceFiles {
  /**
   * Whole current text of the file: an open editor's unsaved text when there is one, else the disk.
   * Returns `undefined` for a missing file (the engine answers the agent `""`).
   */
  readText(absPath: string): Promise<string | undefined>;
  /**
   * Write the whole file. `lastReadText` is what the agent last read (if it did), so an editor-backed host
   * can apply a minimal edit that keeps concurrent user edits. Creates parent folders. `signal`: once aborted,
   * nothing is applied any more (it throws instead): the thread host no longer waits for this write.
   */
  writeText(absPath: string, content: string, lastReadText: string | undefined, signal?: AbortSignal): Promise<void>;
  /**
   * Lines `line` .. `line + limit - 1` (1-based; all when absent) without loading more of the file than needed,
   * at most `maxBytes` of them (an error names the cap). `undefined` for a missing file. Hosts without it get
   * `readText` sliced under the same cap.
   */
  readLines?(
    absPath: string,
    range: { line?: number | null; limit?: number | null; maxBytes?: number },
  ): Promise<string | undefined>;
}

/** Context shown to whoever answers a permission request. */
export interface PermissionPrompt {
  sessionId: string;
  agentId: string;
  request: acp.RequestPermissionRequest;
  /** For edits: the file's current text and the proposed text, when known (diff review). */
  proposed?: { path: string; oldText: string | null; newText: string };
  /** The request's paths outside the session's roots: the prompt marks it "outside the workspace". */
  outside?: string[];
  /** Aborted when the turn is cancelled; the asker must then stop asking. */
  signal: AbortSignal;
  /** The id the question already has (a thread host's): the editor's card keeps it, as the events name it. */
  requestId?: string;
}

/** Asks a person. Resolves to the chosen option id, or `null` if the prompt was dismissed/cancelled. */
export interface PermissionAsker {
  ask(prompt: PermissionPrompt): Promise<string | null>;
  /** Who answered `prompt`, once answered, where the asker knows (the thread host: the client that answered first). */
  answeredBy?(prompt: PermissionPrompt): string | undefined;
}

/** A process started for `terminal/create`, as the host may want to show it (integrated terminal). */
export interface TerminalView {
  terminalId: string;
  sessionId: string;
  commandLine: string;
  cwd: string;
  /** Every output chunk as it arrives (already decoded to text). */
  onOutput(listener: (data: string) => void): Disposable;
  /** `status`: an exec run's status in its registry (`timeout`, `killed`...), where the terminal is one. */
  onExit(listener: (status: { exitCode: number | null; signal: string | null; status?: string }) => void): Disposable;
  /** Input typed by the user into the host's terminal. */
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

/** Notified when the engine starts a terminal for an agent, so the host can display it. */
export interface TerminalHost {
  onTerminalCreated(view: TerminalView): void;
  /**
   * Why nobody would see a login terminal now (the thread host with no editor showing its terminals): an agent's
   * terminal login then fails at once with this text instead of waiting in a terminal nobody types into. Absent,
   * or resolving to undefined: someone sees it.
   */
  loginUnseen?(): Promise<string | undefined>;
}

/**
 * The editor a restore of the edit ledger writes through, in the process that shows the files (the window: its
 * `localEngine`'s `editor`; over the thread host's socket there is none, and the disk is read and written). A
 * restore plans against what the user sees and writes over unsaved buffers, so an editor never keeps a stale one.
 */
export interface EditorFiles {
  /** The file as the user sees it: an open editor's unsaved text, else the disk's; null when it does not exist. */
  currentText(absPath: string): Promise<string | null>;
  /** The file is open with unsaved edits (a restore counts them as edits made since the thread's last change). */
  isDirty(absPath: string): boolean;
  /** Writes the whole file (through its open editor, saved, when there is one). */
  write(absPath: string, content: Uint8Array): Promise<void>;
  remove(absPath: string): Promise<void>;
}
