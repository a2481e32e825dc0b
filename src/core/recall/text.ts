/**
 * Text normalisation and CJK segmentation shared by indexing and querying, so both sides agree exactly.
 *
 * FTS5's tokenizers do not split CJK runs (a whole run is one token), so we segment in JS: every CJK run becomes its
 * overlapping bigrams, in order, so a CJK needle of length L is the FTS phrase of its L-1 bigrams. Unigrams are
 * never interleaved with bigrams (that breaks phrase adjacency); a 1-char run is emitted as itself.
 */

/** Han (incl. ext A and compatibility), kana, Hangul syllables and jamo. */
const CJK =
  /[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u;
/** CJK punctuation and symbols that separate words (NFKC already maps full-width ASCII to ASCII). */
const CJK_PUNCT = /[\u3000-\u303f\u30fb\uff00-\uffef\u2018-\u201f\u2026\u00b7]/gu;
/** What counts as a word character in the indexed text (see normalize) for the tokenizer with tokenchars '_'. */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

export function isCjkChar(ch: string): boolean {
  return CJK.test(ch);
}

/**
 * The index uses FTS5's ascii tokenizer (a third faster than unicode61 on CJK-heavy text): it splits only on ASCII
 * punctuation and space, so the rest of what unicode61 did happens here, on both the indexed text and the needle.
 * Other non-ASCII punctuation and symbols become spaces and Latin letters lose their diacritics (é → e).
 */
const NON_ASCII = /[^\t-~]/; // outside ASCII (controls below tab are separators either way)
const NON_WORD = /[^\t-~\p{L}\p{N}\p{M}]/gu;
const LATIN_MARKED = /[\u00c0-\u024f\u1e00-\u1eff]/g;
const MARKS = /\p{M}/gu;
const unmark = (ch: string) => ch.normalize("NFD").replace(MARKS, "") || ch;

/** NFKC, case-fold, CJK punctuation and other non-ASCII separators turned into spaces, diacritics folded. */
export function normalize(text: string): string {
  const folded = text.normalize("NFKC").toLowerCase();
  if (!NON_ASCII.test(folded)) return folded;
  return folded.replace(CJK_PUNCT, " ").replace(NON_WORD, " ").replace(LATIN_MARKED, unmark);
}

/** Same ranges as CJK, by code unit (all of them are in the BMP): the hot path of indexing avoids regexes. */
function isCjkCode(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x31f0 && c <= 0x31ff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x3130 && c <= 0x318f)
  );
}

/**
 * A token between two CJK runs that only punctuation or space separates ("数据，据库"), so the bigram phrase of
 * 数据库 cannot match across them: FTS phrases of bigrams are then exact and need no check against the text.
 */
export const RUN_BREAK = "ǁ";
const HAS_WORD = /[\p{L}\p{N}_]/u;

/** The text stored in the FTS column: normalized, CJK runs replaced by space-separated bigrams. */
export function segment(normalized: string): string {
  const out: string[] = [];
  let plain = 0; // start of the pending non-CJK slice
  let lastRunEnd = -1;
  let i = 0;
  const n = normalized.length;
  while (i < n) {
    if (!isCjkCode(normalized.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isCjkCode(normalized.charCodeAt(j))) j++;
    if (i > plain) out.push(normalized.slice(plain, i));
    if (lastRunEnd >= 0 && !HAS_WORD.test(normalized.slice(lastRunEnd, i))) out.push(RUN_BREAK);
    lastRunEnd = j;
    if (j - i === 1) out.push(normalized[i]);
    else for (let k = i; k + 1 < j; k++) out.push(normalized.slice(k, k + 2));
    plain = i = j;
  }
  if (plain < n) out.push(normalized.slice(plain));
  return out.join(" ");
}

/**
 * The index tokens of a normalized needle, in order, as the text would be segmented around it. A one-char CJK
 * run at either end is dropped (inside the text it is part of a bigram the needle cannot name): `trimmed` then
 * tells the caller to confirm candidates against the text.
 */
export function needleTokens(normalized: string): { tokens: string[]; trimmed: boolean } {
  const tokens = segment(normalized).match(WORD) ?? [];
  let trimmed = false;
  const single = (t: string | undefined) => t !== undefined && t.length === 1 && isCjkCode(t.charCodeAt(0));
  const edge = (t: string | undefined) => single(t) || t === RUN_BREAK;
  while (edge(tokens[0])) {
    tokens.shift();
    trimmed = true;
  }
  while (edge(tokens[tokens.length - 1])) {
    tokens.pop();
    trimmed = true;
  }
  return { tokens, trimmed };
}

export const isCjkToken = (t: string) => t.length > 0 && isCjkCode(t.charCodeAt(0));

/** Collapses whitespace for previews. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
