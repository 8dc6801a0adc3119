// A message's text cut into the blocks Markdown will make of it (paragraphs, headings, lists, quotes,
// fenced code), by lines and without a parser: the lane head lays each out as the lane will, so the
// first screen does not move when the lane's rendered Markdown replaces it. Texts keep their inline marks
// (LaneHead draws them through markedRuns); what this misses shows as a paragraph, and the lane's Markdown
// replaces it.
import { COLLAPSE_AFTER_CHARS, COLLAPSE_AFTER_LINES, COLLAPSED_LINES, PREVIEW_CHARS } from './collapse';
import { cutText } from '../../../lib/cutText';

export type HeadBlock =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | HeadList
  | { kind: 'quote'; text: string }
  | { kind: 'hr' }
  /** The first row is the header; `align` is each column's, from the delimiter row ('' for none). */
  | { kind: 'table'; rows: string[][]; align: string[] }
  /** `shown` is the code's start when the lane collapses the block (CodeBlock: over 40 lines or 10,000 characters). */
  | { kind: 'code'; lang: string; shown: string; lines: number; chars: number; collapsed: boolean };

/**
 * A list: `start` is an ordered list's first number; `loose` when blank lines part its items (marked
 * then puts each in a paragraph, spaced apart); an item's `sub` is the list indented under it.
 */
export interface HeadList {
  kind: 'list';
  ordered: boolean;
  start: number;
  loose: boolean;
  items: { text: string; sub?: HeadList }[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const RULE = /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A table's delimiter row: `| --- | :-: |`, or `--- | ---` without the outer pipes. */
const DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A table row's cells: the outer pipes dropped, split at pipes that are not escaped (`\|`). */
function cells(line: string): string[] {
  // No lookbehind: this runs in the first file, which Safari before 16.4 must still parse.
  const inner = line.trim().replace(/\\\|/g, '\u0000').replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((cell) => cell.trim().replace(/\u0000/g, '|'));
}

/** The index of the line that closes the fence opened at `lines[open]` (`lines.length` when none does). */
function fenceEnd(lines: string[], open: number, fence: string): number {
  const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
  let at = open + 1;
  while (at < lines.length && !close.test(lines[at]!)) at++;
  return at;
}

/**
 * The first `lines` lines of `text`, as the lane previews the person's own long text (previewSegments):
 * a code block is taken whole and counts as its shown lines.
 */
export function previewText(text: string, lines: number): string {
  const all = text.split('\n');
  let end = 0;
  for (let left = lines; end < all.length && left > 0; end++) {
    const fence = FENCE.exec(all[end]!);
    if (!fence) {
      left--;
      continue;
    }
    const close = fenceEnd(all, end, fence[1]!);
    left -= Math.min(COLLAPSED_LINES, close - end - 1);
    end = close;
  }
  return all.slice(0, end).join('\n');
}

/** The characters a code block of `code`'s lines shows: its start when the lane collapses it (CodeBlock). */
function codeShown(code: string[]): string {
  const whole = code.join('\n');
  return code.length > COLLAPSE_AFTER_LINES || whole.length > COLLAPSE_AFTER_CHARS
    ? cutText(code.slice(0, COLLAPSED_LINES).join('\n'), PREVIEW_CHARS)
    : whole;
}

/** Where each block of a text may start, the characters shown before it, and the characters it all shows. */
interface BlockStarts {
  starts: { at: number; before: number }[];
  shown: number;
}

/**
 * The places a block starts in `text` (a code block's fence, or a line after a blank one, not indented and
 * not a list's next item), and the characters shown up to each (a collapsed code block counts as what it shows).
 */
function blockStarts(text: string): BlockStarts {
  const lines = text.split('\n');
  const starts: { at: number; before: number }[] = [];
  let shown = 0;
  let at = 0; // where lines[i] starts
  let afterBlank = false;
  /** Inside a list: an item after a blank line goes on with it (loose), it starts no block. */
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    const item = ITEM.test(line);
    if (fence || (afterBlank && /^\S/.test(line) && !(item && inList))) starts.push({ at, before: shown });
    // A line that is not an item ends the list after a blank line; right under an item it goes on with it.
    if (/^\S/.test(line)) inList = item || (inList && !afterBlank);
    if (fence) {
      // On past its closing fence's line: no block starts inside it, and one starts after it.
      inList = false;
      const close = Math.min(fenceEnd(lines, i, fence[1]!), lines.length);
      shown += codeShown(lines.slice(i + 1, close)).length + line.length + 2;
      for (; i < close && i < lines.length - 1; i++) at += lines[i]!.length + 1;
      if (i < lines.length) at += lines[i]!.length + 1;
      afterBlank = true;
      continue;
    }
    shown += line.length + 1;
    at += line.length + 1;
    afterBlank = line.trim() === '';
  }
  return { starts, shown };
}

/**
 * The end of `text` a screen shows when the text ends at the screen's bottom, as the lane scrolled to its
 * newest does: from the last block start (blockStarts) that leaves at least `chars` characters shown; all
 * of it when none does. Drawn from its start, a long reply's first paragraphs were on screen until the
 * lane showed its last ones.
 */
export function textEnd(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const { starts, shown } = blockStarts(text);
  let from = 0;
  for (const start of starts) if (shown - start.before >= chars) from = start.at;
  return text.slice(from);
}

/** About how many characters `text` shows in the lane: a collapsed code block counts as what it shows. */
export function shownLength(text: string): number {
  return text.includes('```') || text.includes('~~~') ? blockStarts(text).shown : text.length;
}

/** Characters of `text` outside its fenced code blocks (the lane collapses a text by these, HUGE_CHARS). */
export function markdownLength(text: string): number {
  if (!text.includes('```') && !text.includes('~~~')) return text.length;
  const lines = text.split('\n');
  let code = 0;
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]!);
    if (!fence) continue;
    const close = fenceEnd(lines, i, fence[1]!);
    for (let j = i + 1; j < close && j < lines.length; j++) code += lines[j]!.length + 1;
    i = close;
  }
  return text.length - code;
}

const isOrdered = (marker: string) => /\d/.test(marker);

function newList(marker: string): HeadList {
  const ordered = isOrdered(marker);
  return { kind: 'list', ordered, start: ordered ? parseInt(marker, 10) : 1, loose: false, items: [] };
}

/** The blocks of `text`, in order. */
export function headBlocks(text: string): HeadBlock[] {
  const lines = text.split('\n');
  const blocks: HeadBlock[] = [];
  let paragraph: string[] = [];
  let list: HeadList | undefined;
  /** A blank line inside the list: the list goes on (loose) if an item of its kind comes next. */
  let gap = false;
  let quote: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'p', text: paragraph.join('\n') });
    if (list) blocks.push(list);
    if (quote.length) blocks.push({ kind: 'quote', text: quote.join('\n') });
    paragraph = [];
    list = undefined;
    gap = false;
    quote = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const close = fenceEnd(lines, i, fence[1]!);
      const code = lines.slice(i + 1, close);
      const chars = code.join('\n').length;
      // Cut as CodeBlock cuts it: its first lines, at most PREVIEW_CHARS (minified code is one line).
      const shown = codeShown(code);
      blocks.push({
        kind: 'code',
        lang: fence[2] ?? '',
        shown,
        lines: code.length,
        chars,
        collapsed: shown.length < chars,
      });
      i = close;
      continue;
    }
    if (line.trim() === '') {
      if (list && !paragraph.length && !quote.length) gap = true;
      else flush();
      continue;
    }
    const item = ITEM.exec(line);
    if (gap && !(item && item[1]!.length < 2 && isOrdered(item[2]!) === list!.ordered)) flush();
    // Under a paragraph, `===` or `---` makes it a heading (setext), not a rule.
    const underline = SETEXT.exec(line);
    if (underline && paragraph.length) {
      const text = paragraph.join('\n');
      paragraph = [];
      blocks.push({ kind: 'h', level: underline[1]![0] === '=' ? 1 : 2, text });
      continue;
    }
    if (RULE.test(line) && !list) {
      flush();
      blocks.push({ kind: 'hr' });
      continue;
    }
    // A table: a row with pipes, then a delimiter row with as many columns (GFM), then its rows.
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && next.includes('-') && DELIMITER.test(next) && !list) {
      const header = cells(line);
      const delimiter = cells(next);
      if (header.length === delimiter.length) {
        flush();
        const rows = [header];
        for (i += 2; i < lines.length && lines[i]!.trim() !== '' && lines[i]!.includes('|'); i++)
          rows.push(cells(lines[i]!));
        i--;
        const align = delimiter.map((d) =>
          d.endsWith(':') ? (d.startsWith(':') ? 'center' : 'right') : d.startsWith(':') ? 'left' : '',
        );
        blocks.push({ kind: 'table', rows, align });
        continue;
      }
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'h', level: heading[1]!.length, text: heading[2]! });
      continue;
    }
    if (item && (item[1]!.length < 4 || list)) {
      const ordered = isOrdered(item[2]!);
      const last = list?.items.at(-1);
      // Indented under an item: a list of its own inside that item.
      if (last && item[1]!.length >= 2) {
        last.sub ??= newList(item[2]!);
        last.sub.items.push({ text: item[3]! });
        continue;
      }
      if (!list || list.ordered !== ordered) flush();
      list ??= newList(item[2]!);
      if (gap) list.loose = true;
      gap = false;
      list.items.push({ text: item[3]! });
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted) {
      if (!quote.length) flush();
      quote.push(quoted[1]!);
      continue;
    }
    // A line under an item (indented or not) goes on with it, as a lazy continuation does.
    const last = list?.items.at(-1);
    if (last) {
      const into = last.sub?.items.at(-1) ?? last;
      into.text += `\n${line.trim()}`;
    } else if (quote.length) quote.push(line);
    else paragraph.push(line);
  }
  flush();
  return blocks;
}
