/** Error codes the CLI maps to exit codes and the extension maps to messages. */
export const ERROR_CODES = [
  "usage",
  "agent_not_found",
  "agent_exited",
  "protocol",
  "timeout",
  "permission_denied",
  "path_outside_workspace",
  "not_found",
  "corrupt",
  "unsupported_version",
  "interrupted",
  "untrusted_workspace",
  /** Another process holds the file's lock (`details.holder`: pid, host, label, since). */
  "locked",
  /** `--sandbox` was asked for and this machine cannot sandbox (the message says what to install). */
  "sandbox_unavailable",
  /** A folder that must be the user's alone (the thread host's door) is a link, a file, or open to others. */
  "unsafe_path",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error meant for the user: `message` says what happened and, where possible, what to do. */
export class AcpThreadsError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AcpThreadsError";
    this.code = code;
    this.details = details;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === "object" && "message" in err && typeof (err as { message: unknown }).message === "string") {
    return (err as { message: string }).message;
  }
  return String(err);
}

/** An `AcpThreadsError` as data: its code and details, as JSON (what crosses a socket or goes in a run's outcome). */
export interface ErrorInfo {
  code: ErrorCode;
  details?: Record<string, unknown>;
}

/** `err`'s code and details as JSON (details that are not JSON are left out); none for another error. */
export function errorInfo(err: unknown): ErrorInfo | undefined {
  if (!(err instanceof AcpThreadsError)) return undefined;
  let details: Record<string, unknown> | undefined;
  try {
    details = err.details && (JSON.parse(JSON.stringify(err.details)) as Record<string, unknown>);
  } catch {
    details = undefined; // not JSON: the code still goes
  }
  return { code: err.code, ...(details ? { details } : {}) };
}
