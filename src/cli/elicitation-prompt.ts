/**
 * `run --elicitation ask|decline|defaults`: how the CLI answers an agent's `elicitation/create`.
 * - ask: on a terminal, one prompt per field (typed text is checked; a bad value is asked again), and a yes/no
 *   before a URL is opened (the URL is printed, the person opens it); without a terminal it declines.
 * - decline: every request is declined.
 * - defaults: a form whose required fields all have defaults is accepted with the defaults; anything else
 *   (a URL, a required field without one) is declined.
 * Prompts go to stderr so `--format json` output stays clean; everything the agent wrote in them is printed inert
 * (terminal-text.ts: no escape sequence or control character reaches the terminal).
 */
import { createInterface } from "node:readline/promises";
import { defaultAnswer, fieldHint, parseFieldText } from "../core/acp/elicitation-form";
import type { ElicitationAnswer, ElicitationAsker, ElicitationPrompt, FieldValue } from "../core/model/elicitation";
import { agentLine, agentText } from "./terminal-text";

export const ELICITATION_MODES = ["ask", "decline", "defaults"] as const;
export type ElicitationMode = (typeof ELICITATION_MODES)[number];

export interface CliElicitationIO {
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
  /** True when stdin is a terminal a person types into. */
  interactive: boolean;
}

export function cliElicitor(mode: ElicitationMode, io: CliElicitationIO): ElicitationAsker {
  const note = (text: string) => io.stderr.write(`${text}\n`);
  return {
    async ask(prompt) {
      if (mode === "decline") return { action: "decline" };
      if (mode === "defaults") {
        if (prompt.mode !== "form") return { action: "decline" };
        const answer = defaultAnswer(prompt.form);
        if (!answer.ok) note(`acp-threads run: declined a form: no default for ${answer.missing.join(", ")}`);
        return answer.ok ? { action: "accept", content: answer.content } : { action: "decline" };
      }
      if (!io.interactive) {
        note("acp-threads run: the agent asked a question; declined (stdin is not a terminal; see --elicitation)");
        return { action: "decline" };
      }
      return await askOnTerminal(prompt, io);
    },
    completed: () => note("acp-threads run: the agent reports the web step is complete"),
  };
}

async function askOnTerminal(prompt: ElicitationPrompt, io: CliElicitationIO): Promise<ElicitationAnswer> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  const closed = new Promise<never>((_, reject) => rl.once("close", () => reject(new Error("stdin ended"))));
  closed.catch(() => {});
  const question = (q: string) => Promise.race([rl.question(q, { signal: prompt.signal }), closed]);
  const say = (text: string) => io.stderr.write(`${text}\n`);
  try {
    say(`\nThe agent asks: ${agentText(prompt.message)}`);
    if (prompt.mode === "url") {
      say(`It wants you to open a page on ${agentLine(prompt.host)}:\n  ${agentLine(prompt.url)}`);
      const yes = await question("Open it (you open the link yourself)? [y/N] ");
      return /^y(es)?$/iu.test(yes.trim()) ? { action: "accept" } : { action: "decline" };
    }
    const { form } = prompt;
    if (form.title) say(agentText(form.title));
    if (form.description) say(agentText(form.description));
    say(`(an empty answer keeps the default; type "!decline" or "!cancel" at any prompt to stop)`);
    const content: Record<string, FieldValue> = {};
    for (const field of form.fields) {
      if (field.description) say(`  ${agentText(field.description, "    ")}`);
      for (;;) {
        const title = agentLine(field.title);
        const text = await question(`${title}${field.required ? " *" : ""} [${agentLine(fieldHint(field))}]: `);
        const t = text.trim();
        if (t === "!decline") return { action: "decline" };
        if (t === "!cancel") return { action: "cancel" };
        const parsed = parseFieldText(field, text);
        if (!parsed.ok) {
          say(`  ${agentLine(parsed.reason)}`);
          continue;
        }
        const value = parsed.value ?? field.default;
        if (value === undefined && field.required) {
          say(`  ${title} is required`);
          continue;
        }
        if (value !== undefined) content[field.name] = value;
        break;
      }
    }
    return { action: "accept", content };
  } catch {
    // The question was withdrawn (signal) or stdin ended: no answer.
    return { action: "cancel" };
  } finally {
    rl.close();
  }
}
