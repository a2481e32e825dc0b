/**
 * The form of an `elicitation/create` request (form mode): its `requestedSchema` checked and turned into a list
 * of fields any front end can render (panel, QuickPick steps, CLI prompts), and the answers checked against it.
 *
 * Only what the ACP v1 schema allows is rendered: a flat object of string (with `format`, `pattern`, length
 * bounds, or `enum`/`oneOf` as a single choice), number, integer, boolean and array-of-enum (multi choice)
 * properties. Anything else makes the whole form unrenderable, with a reason, and the request is declined.
 */
import type {
  ElicitationForm,
  FieldBase,
  FieldChoice,
  FieldValue,
  FormField,
  StringFormat,
} from "../model/elicitation";

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const FORMATS = new Set(["email", "uri", "date", "date-time"]);
/** A form with more fields than this is not something to ask a person in a prompt. */
export const MAX_FIELDS = 50;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optString = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const given = (v: unknown) => v !== undefined && v !== null;

/** Checks a `requestedSchema` and returns the form to render, or why it cannot be rendered. */
export function parseRequestedSchema(schema: unknown): Parsed<ElicitationForm> {
  if (!isObject(schema)) return { ok: false, reason: "the requested schema is not an object" };
  if (given(schema.type) && schema.type !== "object")
    return { ok: false, reason: `the requested schema has type "${String(schema.type)}", not "object"` };
  const props = schema.properties ?? {};
  if (!isObject(props)) return { ok: false, reason: "its properties are not an object" };
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS) return { ok: false, reason: `it has ${names.length} fields (at most ${MAX_FIELDS})` };
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== "string"))
    return { ok: false, reason: "its required list is not a list of names" };
  const missing = (required as string[]).find((r) => !(r in props));
  if (missing !== undefined) return { ok: false, reason: `it requires "${missing}", which it does not define` };
  const fields: FormField[] = [];
  for (const name of names) {
    const field = parseField(name, props[name], (required as string[]).includes(name));
    if (!field.ok) return { ok: false, reason: `field "${name}": ${field.reason}` };
    fields.push(field.value);
  }
  return {
    ok: true,
    value: { title: optString(schema.title), description: optString(schema.description), fields },
  };
}

function parseField(name: string, raw: unknown, required: boolean): Parsed<FormField> {
  if (!isObject(raw)) return { ok: false, reason: "not an object" };
  const base: FieldBase = {
    name,
    title: optString(raw.title) ?? name,
    required,
    ...(optString(raw.description) ? { description: optString(raw.description) } : {}),
  };
  const num = (key: string, integer = false): Parsed<number | undefined> => {
    const v = raw[key];
    if (!given(v)) return { ok: true, value: undefined };
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v)))
      return { ok: false, reason: `${key} is not ${integer ? "an integer" : "a number"}` };
    return { ok: true, value: v };
  };
  const all = <K extends string>(keys: K[], integer = false): Parsed<Partial<Record<K, number>>> => {
    const out: Partial<Record<K, number>> = {};
    for (const k of keys) {
      const r = num(k, integer);
      if (!r.ok) return r;
      if (r.value !== undefined) out[k] = r.value;
    }
    return { ok: true, value: out };
  };
  const checked = (field: FormField): Parsed<FormField> => {
    const bad = boundsProblem(field);
    if (bad) return { ok: false, reason: bad };
    if (field.default !== undefined) {
      const err = fieldError(field, field.default);
      if (err) return { ok: false, reason: `its default does not fit: ${err}` };
    }
    return { ok: true, value: field };
  };
  switch (raw.type) {
    case "string": {
      if (given(raw.enum) || given(raw.oneOf)) {
        const choices = parseChoices(raw.enum, raw.oneOf);
        if (!choices.ok) return choices;
        if (given(raw.default) && typeof raw.default !== "string")
          return { ok: false, reason: "default is not a string" };
        return checked({ ...base, kind: "choice", choices: choices.value, ...defaultOf(raw) });
      }
      if (given(raw.format) && !FORMATS.has(raw.format as string))
        return { ok: false, reason: `format "${String(raw.format)}" is not one we can check` };
      if (given(raw.pattern)) {
        if (typeof raw.pattern !== "string") return { ok: false, reason: "pattern is not a string" };
        try {
          new RegExp(raw.pattern, "u");
        } catch {
          return { ok: false, reason: `pattern ${raw.pattern} is not a valid regular expression` };
        }
      }
      if (given(raw.default) && typeof raw.default !== "string")
        return { ok: false, reason: "default is not a string" };
      const lens = all(["minLength", "maxLength"], true);
      if (!lens.ok) return lens;
      return checked({
        ...base,
        kind: "string",
        ...lens.value,
        ...(given(raw.pattern) ? { pattern: raw.pattern as string } : {}),
        ...(given(raw.format) ? { format: raw.format as StringFormat } : {}),
        ...defaultOf(raw),
      });
    }
    case "number":
    case "integer": {
      const integer = raw.type === "integer";
      const bounds = all(["minimum", "maximum"]);
      if (!bounds.ok) return bounds;
      const def = num("default", integer);
      if (!def.ok) return def;
      return checked({
        ...base,
        kind: integer ? "integer" : "number",
        ...bounds.value,
        ...(def.value !== undefined ? { default: def.value } : {}),
      });
    }
    case "boolean":
      if (given(raw.default) && typeof raw.default !== "boolean")
        return { ok: false, reason: "default is not a boolean" };
      return checked({ ...base, kind: "boolean", ...defaultOf(raw) });
    case "array": {
      const items = raw.items;
      if (!isObject(items)) return { ok: false, reason: "a list without item choices" };
      if (given(items.type) && items.type !== "string")
        return { ok: false, reason: `a list of "${String(items.type)}" items` };
      const choices = parseChoices(items.enum, items.anyOf);
      if (!choices.ok) return choices;
      if (given(raw.default) && (!Array.isArray(raw.default) || raw.default.some((d) => typeof d !== "string")))
        return { ok: false, reason: "default is not a list of strings" };
      const counts = all(["minItems", "maxItems"], true);
      if (!counts.ok) return counts;
      return checked({ ...base, kind: "multi", choices: choices.value, ...counts.value, ...defaultOf(raw) });
    }
    default:
      return { ok: false, reason: `type "${String(raw.type)}" is not one we can render` };
  }
}

function defaultOf(raw: Record<string, unknown>): { default?: never } {
  return (given(raw.default) ? { default: raw.default } : {}) as { default?: never };
}

function parseChoices(values: unknown, titled: unknown): Parsed<FieldChoice[]> {
  let choices: FieldChoice[];
  if (given(titled)) {
    if (!Array.isArray(titled) || !titled.every((o) => isObject(o) && typeof o.const === "string"))
      return { ok: false, reason: "its titled choices are not {const, title} objects" };
    choices = titled.map((o) => ({
      value: o.const as string,
      title: optString(o.title) ?? (o.const as string),
      ...(optString(o.description) ? { description: optString(o.description) } : {}),
    }));
  } else {
    if (!Array.isArray(values) || !values.every((v) => typeof v === "string"))
      return { ok: false, reason: "its choices are not a list of strings" };
    choices = values.map((v) => ({ value: v, title: v }));
  }
  if (choices.length === 0) return { ok: false, reason: "it offers no choices" };
  if (new Set(choices.map((c) => c.value)).size !== choices.length) return { ok: false, reason: "a choice repeats" };
  return { ok: true, value: choices };
}

function boundsProblem(f: FormField): string | undefined {
  const pair = (lo: number | undefined, hi: number | undefined, what: string) =>
    lo !== undefined && hi !== undefined && lo > hi ? `its ${what} range is empty (${lo} > ${hi})` : undefined;
  if (f.kind === "string") {
    if ((f.minLength ?? 0) < 0 || (f.maxLength ?? 0) < 0) return "a negative length bound";
    return pair(f.minLength, f.maxLength, "length");
  }
  if (f.kind === "number" || f.kind === "integer") return pair(f.minimum, f.maximum, "value");
  if (f.kind === "multi") return pair(f.minItems, f.maxItems, "selection");
  return undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/u;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/u;

function formatError(format: StringFormat, v: string): string | undefined {
  switch (format) {
    case "email":
      return EMAIL.test(v) ? undefined : "is not an email address";
    case "uri":
      return URL.canParse(v) ? undefined : "is not a URI (e.g. https://example.com)";
    case "date":
      return DATE.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : "is not a date (YYYY-MM-DD)";
    case "date-time":
      return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v))
        ? undefined
        : "is not a date and time (YYYY-MM-DDThh:mm:ssZ)";
  }
}

/** Why `value` does not fit `field` (a short phrase), or undefined when it fits. */
export function fieldError(field: FormField, value: unknown): string | undefined {
  switch (field.kind) {
    case "string": {
      if (typeof value !== "string") return "must be text";
      const len = [...value].length;
      if (field.minLength !== undefined && len < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && len > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      if (field.pattern !== undefined && !new RegExp(field.pattern, "u").test(value))
        return `must match ${field.pattern}`;
      return field.format ? formatError(field.format, value) : undefined;
    }
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be yes or no";
    case "choice":
      return typeof value === "string" && field.choices.some((c) => c.value === value)
        ? undefined
        : `must be one of ${field.choices.map((c) => c.value).join(", ")}`;
    case "multi": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return "must be a list of choices";
      const unknown = value.find((v) => !field.choices.some((c) => c.value === v));
      if (unknown !== undefined) return `"${unknown}" is not one of the choices`;
      if (new Set(value).size !== value.length) return "a choice is picked twice";
      if (field.minItems !== undefined && value.length < field.minItems) return `pick at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `pick at most ${field.maxItems}`;
      return undefined;
    }
  }
}

/**
 * Checks a whole answer: every required field present, each given value fits, no unknown field. Returns the
 * content to send (only the form's fields) or the problems by field name.
 */
export function validateAnswer(
  form: ElicitationForm,
  values: Record<string, unknown>,
): { ok: true; content: Record<string, FieldValue> } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const content: Record<string, FieldValue> = {};
  for (const name of Object.keys(values))
    if (!form.fields.some((f) => f.name === name)) errors[name] = "is not a field of this form";
  for (const field of form.fields) {
    const v = values[field.name];
    if (v === undefined || v === null) {
      if (field.required) errors[field.name] = "is required";
      continue;
    }
    const err = fieldError(field, v);
    if (err) errors[field.name] = err;
    else content[field.name] = v as FieldValue;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

/** The answer made of the defaults alone, or the required fields that have none. */
export function defaultAnswer(
  form: ElicitationForm,
): { ok: true; content: Record<string, FieldValue> } | { ok: false; missing: string[] } {
  const content: Record<string, FieldValue> = {};
  const missing: string[] = [];
  for (const f of form.fields) {
    if (f.default !== undefined) content[f.name] = f.default;
    else if (f.required) missing.push(f.name);
  }
  return missing.length ? { ok: false, missing } : { ok: true, content };
}

/**
 * Reads typed text as a value of `field` (CLI prompts, input boxes): numbers parsed, yes/no for booleans, a choice
 * by value, title or 1-based number, a multi choice as a comma-separated list. Empty text means "no value".
 */
export function parseFieldText(field: FormField, text: string): Parsed<FieldValue | undefined> {
  const t = text.trim();
  if (t === "") return { ok: true, value: undefined };
  const fit = (v: FieldValue): Parsed<FieldValue> => {
    const err = fieldError(field, v);
    return err ? { ok: false, reason: `${field.title} ${err}` } : { ok: true, value: v };
  };
  const choose = (choices: FieldChoice[], s: string): string | undefined => {
    const n = /^\d+$/u.test(s) ? Number(s) : NaN;
    if (n >= 1 && n <= choices.length) return choices[n - 1].value;
    const lower = s.toLowerCase();
    return (choices.find((c) => c.value === s) ?? choices.find((c) => c.title.toLowerCase() === lower))?.value;
  };
  switch (field.kind) {
    case "string":
      return fit(text);
    case "number":
    case "integer": {
      const n = Number(t);
      return Number.isNaN(n) ? { ok: false, reason: `${field.title} must be a number` } : fit(n);
    }
    case "boolean": {
      const l = t.toLowerCase();
      if (["y", "yes", "true", "1", "on"].includes(l)) return { ok: true, value: true };
      if (["n", "no", "false", "0", "off"].includes(l)) return { ok: true, value: false };
      return { ok: false, reason: `${field.title}: answer yes or no` };
    }
    case "choice":
      return fit(choose(field.choices, t) ?? t);
    case "multi": {
      const picked = t
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      return fit(picked.map((s) => choose(field.choices, s) ?? s));
    }
  }
}

/** A one-line hint of what a field accepts (shown next to prompts). */
export function fieldHint(field: FormField): string {
  const parts: string[] = [];
  switch (field.kind) {
    case "string":
      if (field.format) parts.push(field.format);
      if (field.minLength !== undefined || field.maxLength !== undefined)
        parts.push(`${field.minLength ?? 0}–${field.maxLength ?? "∞"} characters`);
      break;
    case "number":
    case "integer":
      parts.push(field.kind === "integer" ? "whole number" : "number");
      if (field.minimum !== undefined || field.maximum !== undefined)
        parts.push(`${field.minimum ?? "-∞"}…${field.maximum ?? "∞"}`);
      break;
    case "boolean":
      parts.push("yes/no");
      break;
    case "choice":
      parts.push(field.choices.map((c, i) => `${i + 1}) ${c.title}`).join("  "));
      break;
    case "multi":
      parts.push(`comma-separated: ${field.choices.map((c, i) => `${i + 1}) ${c.title}`).join("  ")}`);
      break;
  }
  if (field.default !== undefined)
    parts.push(`default ${Array.isArray(field.default) ? field.default.join(",") : String(field.default)}`);
  if (!field.required) parts.push("optional");
  return parts.join("; ");
}
