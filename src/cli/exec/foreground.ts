/** Wiring a foreground run to the CLI's own streams: output out, keystrokes or piped stdin in. */
import type { ExecRun } from "../../core/exec";
import type { CliIO } from "../io";

/** Mirrors the run's output (stderr to stderr; a PTY has one stream). Returns the cleanup. */
export function streamOutput(io: CliIO, run: ExecRun, format: "text" | "json"): () => void {
  const sub = run.onOutput((event) => {
    if (!event.text) return;
    if (format === "json")
      io.stdout.write(JSON.stringify({ type: "output", stream: event.stream, text: event.text }) + "\n");
    else (event.stream === "stderr" ? io.stderr : io.stdout).write(event.text);
  });
  return () => sub.dispose();
}

/**
 * Forwards our stdin to the run: raw keystrokes (and window size) when both are terminals, else piped data
 * with EOF passed on. Runs started with closed stdin get nothing. Returns the cleanup.
 */
export function forwardInput(io: CliIO, run: ExecRun): () => void {
  const stdin = io.stdin as NodeJS.ReadStream;
  const stdout = io.stdout as NodeJS.WriteStream;
  const pty = run.state.pty;
  if (!run.acceptsInput) return () => {};
  const rawMode = pty && stdin.isTTY === true && typeof stdin.setRawMode === "function";
  if (rawMode) stdin.setRawMode(true);
  const onData = (chunk: Buffer | string) => {
    if (run.running) run.write(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
  };
  const onEnd = () => run.endInput();
  const onResize = () => {
    if (run.running && stdout.columns && stdout.rows) run.resize(stdout.columns, stdout.rows);
  };
  stdin.on("data", onData);
  if (!stdin.isTTY) stdin.on("end", onEnd);
  if (pty && stdout.isTTY) stdout.on("resize", onResize);
  return () => {
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdout.off("resize", onResize);
    if (rawMode) stdin.setRawMode(false);
    // Reading stdin keeps the event loop alive; let the CLI exit.
    stdin.pause();
  };
}
