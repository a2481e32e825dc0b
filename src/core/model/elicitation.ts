/**
 * An agent's `elicitation/create` as the engine hands it to a front end: a checked form (core/acp/
 * elicitation-form.ts turns `requestedSchema` into it) or a URL to open, and the answer that comes back.
 * Plain types, shared by the engine, the CLI, the extension and the panel.
 */
export type StringFormat = "email" | "uri" | "date" | "date-time";
/** What a form answer may hold per field (ACP `ElicitationContentValue`). */
export type FieldValue = string | number | boolean | string[];

export interface FieldChoice {
  value: string;
  title: string;
  description?: string;
}

export interface FieldBase {
  name: string;
  /** The property's title, or its name. */
  title: string;
  description?: string;
  required: boolean;
}

export type FormField = FieldBase &
  (
    | {
        kind: "string";
        default?: string;
        minLength?: number;
        maxLength?: number;
        pattern?: string;
        format?: StringFormat;
      }
    | { kind: "number" | "integer"; default?: number; minimum?: number; maximum?: number }
    | { kind: "boolean"; default?: boolean }
    | { kind: "choice"; default?: string; choices: FieldChoice[] }
    | { kind: "multi"; default?: string[]; choices: FieldChoice[]; minItems?: number; maxItems?: number }
  );

export interface ElicitationForm {
  title?: string;
  description?: string;
  fields: FormField[];
}

export type ElicitationPrompt = {
  /** Absent for a request-scoped elicitation (before any session). */
  sessionId?: string;
  agentId: string;
  message: string;
  toolCallId?: string;
  /** Aborted when the agent cancels the request (`$/cancel_request`) or the turn is cancelled. */
  signal: AbortSignal;
} & ({ mode: "form"; form: ElicitationForm } | { mode: "url"; elicitationId: string; url: string; host: string });

export type ElicitationAnswer =
  { action: "accept"; content?: Record<string, FieldValue> } | { action: "decline" } | { action: "cancel" };

/** Asks a person to fill a form or to open a URL (url mode: `accept` = they consented to open it). */
export interface ElicitationAsker {
  ask(prompt: ElicitationPrompt): Promise<ElicitationAnswer>;
  /** The agent reports that a URL elicitation finished (`elicitation/complete`). */
  completed?(elicitationId: string): void;
}
