/**
 * Answers an agent's `elicitation/create` in the editor as a sequence of QuickPick / InputBox steps (the form
 * is checked in core/acp/elicitation-form.ts; each typed value is validated as it is typed):
 * first "Answer" or "Decline", then one step per field (yes/no and choices as pick lists, a multi choice as a
 * multi-select list, text and numbers in an input box with the default filled in). Escape at any step cancels.
 * URL mode names the host and asks before anything is opened; only "Open" calls `vscode.env.openExternal`.
 * When the agent withdraws the question (or the turn is cancelled) the open step closes.
 */
import * as vscode from "vscode";
import { fieldHint, parseFieldText } from "../core/acp/elicitation-form";
import type {
  ElicitationAnswer,
  ElicitationAsker,
  ElicitationPrompt,
  FieldValue,
  FormField,
} from "../core/model/elicitation";

type Item<T> = vscode.QuickPickItem & { value: T };
const CANCELLED = Symbol("cancelled");
type Step<T> = T | typeof CANCELLED;

export function editorElicitor(label: () => string): ElicitationAsker {
  return {
    ask: (prompt) => (prompt.mode === "url" ? askUrl(label(), prompt) : askForm(label(), prompt)),
    completed: () => void vscode.window.setStatusBarMessage("ACP Threads: the agent's web step is complete", 5000),
  };
}

async function askUrl(label: string, prompt: ElicitationPrompt & { mode: "url" }): Promise<ElicitationAnswer> {
  const picked = await pick<"open" | "decline">(
    prompt.signal,
    `${label}: the agent asks you to open a page on ${prompt.host}`,
    [
      { label: `$(link-external) Open ${prompt.host}`, detail: prompt.url, value: "open" },
      { label: "$(close) Decline", value: "decline" },
    ],
    prompt.message,
  );
  if (picked === CANCELLED) return { action: "cancel" };
  if (picked === "decline") return { action: "decline" };
  const opened = await vscode.env.openExternal(vscode.Uri.parse(prompt.url, true));
  return opened ? { action: "accept" } : { action: "cancel" };
}

async function askForm(label: string, prompt: ElicitationPrompt & { mode: "form" }): Promise<ElicitationAnswer> {
  const { form } = prompt;
  const intro = [form.title, form.description].filter(Boolean).join(" — ");
  const start = await pick<"answer" | "decline">(
    prompt.signal,
    `${label}: ${prompt.message}`,
    [
      {
        label: "$(edit) Answer",
        detail: form.fields.map((f) => `${f.title}${f.required ? " *" : ""}`).join(", "),
        value: "answer",
      },
      { label: "$(close) Decline", value: "decline" },
    ],
    intro || "The agent asks for some input",
  );
  if (start === CANCELLED) return { action: "cancel" };
  if (start === "decline") return { action: "decline" };
  const content: Record<string, FieldValue> = {};
  for (const [i, field] of form.fields.entries()) {
    const title = `${label}: ${prompt.message} (${i + 1}/${form.fields.length})`;
    const value = await askField(prompt.signal, title, field);
    if (value === CANCELLED) return { action: "cancel" };
    if (value !== undefined) content[field.name] = value;
  }
  return { action: "accept", content };
}

function askField(signal: AbortSignal, title: string, field: FormField): Promise<Step<FieldValue | undefined>> {
  const placeholder = `${field.title}${field.description ? ` — ${field.description}` : ""}`;
  const skip: Item<undefined>[] = field.required ? [] : [{ label: "(no answer)", value: undefined }];
  const mark = (is: boolean) => (is ? " (default)" : "");
  switch (field.kind) {
    case "boolean":
      return pick<boolean | undefined>(
        signal,
        title,
        [
          { label: `Yes${mark(field.default === true)}`, value: true },
          { label: `No${mark(field.default === false)}`, value: false },
          ...skip,
        ].sort((a, b) => Number(b.value === field.default) - Number(a.value === field.default)),
        placeholder,
      );
    case "choice":
      return pick<string | undefined>(
        signal,
        title,
        [
          ...field.choices.map((c) => ({
            label: `${c.title}${mark(c.value === field.default)}`,
            description: c.title !== c.value ? c.value : undefined,
            detail: c.description,
            value: c.value,
          })),
          ...skip,
        ].sort((a, b) => Number(b.value === field.default) - Number(a.value === field.default)),
        placeholder,
      );
    case "multi":
      return pickMany(signal, title, field, placeholder);
    default:
      return input(signal, title, field, placeholder);
  }
}

/** Runs a disposable quick input until it settles; the signal hides it (answer: cancelled). */
function run<T>(
  signal: AbortSignal,
  widget: vscode.QuickPick<Item<unknown>> | vscode.InputBox,
  wire: (settle: (v: Step<T>) => void) => void,
): Promise<Step<T>> {
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve) => {
    let done = false;
    const settle = (v: Step<T>) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      resolve(v);
      widget.dispose();
    };
    const onAbort = () => settle(CANCELLED);
    signal.addEventListener("abort", onAbort, { once: true });
    widget.onDidHide(() => settle(CANCELLED));
    wire(settle);
    widget.ignoreFocusOut = true;
    widget.show();
  });
}

function pick<T>(signal: AbortSignal, title: string, items: Item<T>[], placeholder?: string): Promise<Step<T>> {
  const qp = vscode.window.createQuickPick<Item<T>>();
  qp.title = title;
  qp.placeholder = placeholder;
  qp.items = items;
  return run<T>(signal, qp as unknown as vscode.QuickPick<Item<unknown>>, (settle) =>
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0];
      if (chosen) settle(chosen.value);
    }),
  );
}

function pickMany(
  signal: AbortSignal,
  title: string,
  field: FormField & { kind: "multi" },
  placeholder: string,
): Promise<Step<string[] | undefined>> {
  const qp = vscode.window.createQuickPick<Item<string>>();
  qp.title = title;
  qp.placeholder = `${placeholder} (${fieldHint(field)})`;
  qp.canSelectMany = true;
  qp.items = field.choices.map((c) => ({ label: c.title, detail: c.description, value: c.value }));
  qp.selectedItems = qp.items.filter((i) => field.default?.includes(i.value));
  return run<string[] | undefined>(signal, qp as unknown as vscode.QuickPick<Item<unknown>>, (settle) =>
    qp.onDidAccept(() => {
      const values = qp.selectedItems.map((i) => i.value);
      const err = parseFieldText(field, values.join(","));
      if (!err.ok) qp.placeholder = err.reason;
      else if (values.length === 0 && field.required) qp.placeholder = `${field.title} is required`;
      else settle(values.length ? values : undefined);
    }),
  );
}

function input(
  signal: AbortSignal,
  title: string,
  field: FormField,
  placeholder: string,
): Promise<Step<FieldValue | undefined>> {
  const box = vscode.window.createInputBox();
  box.title = title;
  box.prompt = `${placeholder}${field.required ? " (required)" : ""} — ${fieldHint(field)}`;
  box.value = field.default === undefined ? "" : String(field.default);
  const check = (text: string): string | undefined => {
    const parsed = parseFieldText(field, text);
    if (!parsed.ok) return parsed.reason;
    if (parsed.value === undefined && field.required) return `${field.title} is required`;
    return undefined;
  };
  return run<FieldValue | undefined>(signal, box, (settle) => {
    box.onDidChangeValue((text) => (box.validationMessage = check(text)));
    box.onDidAccept(() => {
      const problem = check(box.value);
      box.validationMessage = problem;
      if (problem) return;
      const parsed = parseFieldText(field, box.value);
      settle(parsed.ok ? parsed.value : undefined);
    });
  });
}
