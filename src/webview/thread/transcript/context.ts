/** What entry renderers may read besides the entry itself. Plain data: renderers stay pure and unit-testable. */
import type { TerminalSnapshot } from "../../../core/model/command-output";

export interface RenderContext {
  /** The thread's working directory: paths under it are shown relative. */
  cwd?: string;
  /** Client terminals (`terminal/create`) by id: streamed text and exit status. */
  terminals: Map<string, TerminalSnapshot>;
  /** Keys of collapsible outputs the user expanded ("Show all"). */
  expanded: Set<string>;
  /** Permission requests whose feedback box is open: requestId → the reject option it will answer with. */
  feedback: Map<string, { optionId: string; text: string }>;
}

export const emptyContext = (): RenderContext => ({
  terminals: new Map(),
  expanded: new Set(),
  feedback: new Map(),
});

export const icon = (name: string, label?: string) =>
  label
    ? `<span class="codicon codicon-${name}" role="img" aria-label="${label}" title="${label}"></span>`
    : `<span class="codicon codicon-${name}" aria-hidden="true"></span>`;
