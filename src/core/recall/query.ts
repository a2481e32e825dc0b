/**
 * The recall query language, rg-like: whitespace-separated needles, "quoted phrases", `|` between alternatives.
 * User text never reaches FTS5 raw: every token is quoted here, so operators (AND, NEAR, *, parentheses, column
 * filters) and SQL are just text to search for.
 */
import { isCjkToken, needleTokens, normalize } from "./text";

export interface Term {
  /** As the user wrote it. */
  text: string;
  /** Normalized needle, matched as a substring of the normalized message text. */
  norm: string;
  /** FTS5 MATCH expression, or undefined when the needle cannot use the index (1-char CJK, punctuation only). */
  fts?: string;
  /** Candidates from FTS must be confirmed against the text (phrases, multi-part needles). */
  confirm: boolean;
}

export interface ParsedQuery {
  terms: Term[];
  /** Alternatives: a session matches when it holds every term of one group (term indexes). */
  groups: number[][];
  /** True when the user wrote `|`. */
  explicitOr: boolean;
}

/**
 * One FTS5 phrase of the needle's tokens in the order the indexed text has them (see text.ts segment): bigram
 * phrases are exact, words match at word starts (the last one as a prefix), punctuation between words is
 * ignored the way the tokenizer ignores it. Only a needle trimmed of a one-char CJK edge is confirmed.
 */
export function compileTerm(text: string): Term | undefined {
  const norm = normalize(text).replace(/\s+/g, " ").trim();
  if (!norm) return undefined;
  const { tokens, trimmed } = needleTokens(norm);
  if (tokens.length === 0) return { text, norm, confirm: true };
  const last = tokens[tokens.length - 1];
  const prefix = !isCjkToken(last) && last.length >= 3 ? "*" : "";
  return { text, norm, fts: `"${tokens.join(" ")}"${prefix}`, confirm: trimmed };
}

/** Splits raw input into groups of needles; an unterminated quote runs to the end of the input. */
function lex(input: string): string[][] {
  const groups: string[][] = [[]];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch === "|") {
      groups.push([]);
      i++;
    } else if (/\s/.test(ch)) i++;
    else if (ch === '"') {
      const close = input.indexOf('"', i + 1);
      const end = close < 0 ? input.length : close;
      groups[groups.length - 1].push(input.slice(i + 1, end));
      i = end + 1;
    } else {
      let j = i;
      while (j < input.length && !/[\s|"]/.test(input[j])) j++;
      groups[groups.length - 1].push(input.slice(i, j));
      i = j;
    }
  }
  return groups;
}

export function parseQuery(input: string): ParsedQuery {
  const rawGroups = lex(input);
  const terms: Term[] = [];
  const index = new Map<string, number>();
  const groups: number[][] = [];
  for (const g of rawGroups) {
    const ids: number[] = [];
    for (const raw of g) {
      const t = compileTerm(raw);
      if (!t) continue;
      let id = index.get(t.norm);
      if (id === undefined) {
        id = terms.length;
        terms.push(t);
        index.set(t.norm, id);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    if (ids.length) groups.push(ids);
  }
  return { terms, groups, explicitOr: rawGroups.length > 1 };
}
