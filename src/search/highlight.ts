// Marks where a query matches a text, as plain parts the UI renders as text nodes and <mark>s
// (snippets may come from the gateway and are untrusted: never HTML).
import { queryTerms, tokenize } from './tokenize';

export interface TextPart {
  text: string;
  mark: boolean;
}

/** A run of letters, digits and combining marks: the unit that is marked or not. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Splits `text` into parts, marking each word that equals a query term or starts with the last one. */
export function highlight(text: string, query: string): TextPart[] {
  const { exact, prefix } = queryTerms(query);
  if (prefix === undefined) return text ? [{ text, mark: false }] : [];
  const exactSet = new Set(exact);
  const matches = (word: string) => tokenize(word).some((term) => exactSet.has(term) || term.startsWith(prefix));

  const parts: TextPart[] = [];
  let plainFrom = 0;
  for (const m of text.matchAll(WORD)) {
    if (!matches(m[0])) continue;
    const start = m.index;
    if (start > plainFrom) parts.push({ text: text.slice(plainFrom, start), mark: false });
    parts.push({ text: m[0], mark: true });
    plainFrom = start + m[0].length;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), mark: false });
  return mergePlain(parts);
}

/**
 * A window of about `maxLength` characters around the first match, whitespace collapsed,
 * with an ellipsis where text was cut; then highlighted.
 */
export function snippet(text: string, query: string, maxLength = 160): TextPart[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxLength) return highlight(flat, query);
  const first = highlight(flat, query);
  let offset = 0;
  let matchAt = 0;
  for (const part of first) {
    if (part.mark) {
      matchAt = offset;
      break;
    }
    offset += part.text.length;
  }
  let start = Math.max(0, matchAt - Math.floor(maxLength / 3));
  let end = Math.min(flat.length, start + maxLength);
  start = Math.max(0, end - maxLength);
  // Cut only between words: a snippet never starts or ends with part of a word.
  if (start > 0 && flat[start - 1] !== ' ') {
    const space = flat.indexOf(' ', start);
    start = space !== -1 && space < matchAt ? space + 1 : matchAt;
  }
  if (end < flat.length && flat[end] !== ' ') {
    const space = flat.lastIndexOf(' ', end);
    if (space > matchAt) end = space;
    else {
      const next = flat.indexOf(' ', end);
      end = next === -1 ? flat.length : next;
    }
  }
  end = flat.slice(0, end).trimEnd().length;
  const window = (start > 0 ? '… ' : '') + flat.slice(start, end) + (end < flat.length ? ' …' : '');
  return highlight(window, query);
}

function mergePlain(parts: TextPart[]): TextPart[] {
  const out: TextPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && !last.mark && !part.mark) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}
