/** What the exec commands share: the registry on the data home, exit codes of runs, and run formatting. */
import { openExecRegistry, type ExecRegistry, type RunInfo } from "../../core/exec";
import type { EditLedger } from "../../core/ledger/edit-ledger";
import { LedgerExecRecorder } from "../../core/ledger/exec-recorder";
import type { Logger } from "../../core/log";
import { resolveHome } from "../../core/store/paths";
import { EXIT, type CliIO } from "../io";

/**
 * The registry on `homeLayout(resolveHome()).execDir`. Finished runs are kept as long as the home's settings say
 * (the editor writes `acpThreads.exec.ttlMinutes` there; default 60 min); `ACP_THREADS_EXEC_TTL_MINUTES`
 * overrides it for one process.
 * With `recordThreads`, each run started here is also recorded as a thread in the same home.
 */
export function openRegistry(io: CliIO, recordThreads = false, ledger?: EditLedger): ExecRegistry {
  const ttlMinutes = Number(io.env.ACP_THREADS_EXEC_TTL_MINUTES);
  const warn = (message: string) => io.stderr.write(`acp-threads exec: ${message}\n`);
  const logger: Logger = { debug() {}, info() {}, warn, error: warn };
  return openExecRegistry(resolveHome(io.env), {
    recordThreads,
    logger,
    ttlMs: Number.isFinite(ttlMinutes) && ttlMinutes > 0 ? ttlMinutes * 60_000 : undefined,
    // A CLI process is short-lived: it sweeps when it lists or starts, not on a timer.
    sweepIntervalMs: 0,
    // what the run changes in its folder goes into the thread's edit ledger
    wrapRecorder: ledger && ((threads) => new LedgerExecRecorder(ledger, threads, logger)),
  });
}

/** Exit code of the CLI for a finished run: the command's own code, 3 on timeout, 128+N for a signal. */
export function exitCodeOf(run: RunInfo, signalExitCode: (signal: string | null) => number): number {
  if (run.status === "timeout") return EXIT.timeout;
  if (run.exitCode !== null) return run.exitCode;
  if (run.signal) return signalExitCode(run.signal);
  return EXIT.error;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}K`;
  return `${(n / 1024 / 1024).toFixed(1)}M`;
}

/** `exited 0`, `killed SIGTERM`, `running`, `lost`... */
export function statusLabel(run: RunInfo): string {
  if (run.status === "exited") return `exited ${run.exitCode}`;
  if (run.status === "killed") return `killed ${run.signal ?? ""}`.trim();
  return run.status;
}

/** A fixed-width table (columns padded to their widest cell; the last column is free). */
export function table(rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n") + "\n";
}
