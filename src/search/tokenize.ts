// Turns text into search terms: lowercase, diacritics stripped (NFKD), split on anything that is
// not a letter or digit. Han/kana runs have no spaces between words, so each character is a term.

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9]+/g;
const COMBINING_MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const IDEOGRAPHIC_SPLIT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/** Longer terms are cut: nobody types 200 characters of a base64 blob, and it keeps the index small. */
export const MAX_TERM_LENGTH = 48;

/** Lowercase with diacritics removed ("Crème" → "creme"). */
export function normalize(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
}

/** The terms of a text, in order, repeats kept. */
export function tokenize(text: string): string[] {
  const normalized = normalize(text);
  if (!NON_ASCII.test(normalized)) return cut(normalized.match(ASCII_WORD) ?? []);
  const words = normalized.match(WORD) ?? [];
  const terms: string[] = [];
  for (const word of words) {
    if (IDEOGRAPHIC.test(word)) {
      for (const part of word.match(IDEOGRAPHIC_SPLIT) ?? []) {
        if (IDEOGRAPHIC.test(part)) terms.push(...part);
        else terms.push(part);
      }
    } else {
      terms.push(word);
    }
  }
  return cut(terms);
}

function cut(terms: string[]): string[] {
  for (let i = 0; i < terms.length; i++) {
    if (terms[i].length > MAX_TERM_LENGTH) terms[i] = terms[i].slice(0, MAX_TERM_LENGTH);
  }
  return terms;
}

/** A query's terms, each once; the last one is matched as a prefix (the user may still be typing it). */
export function queryTerms(query: string): { exact: string[]; prefix: string | undefined } {
  const terms = [...new Set(tokenize(query))];
  const prefix = terms.pop();
  return { exact: terms, prefix };
}
