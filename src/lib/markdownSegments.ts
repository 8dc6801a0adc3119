// Markdown split into top-level pieces that render on their own, so a long text is parsed once per
// piece: a streamed reply re-parses only its last piece, a huge document renders piece by piece, and
// a fenced code block becomes a piece of its own (shown by the code block component, not parsed).
// The split is a line scan: cheap enough to run on every streamed update of a 150 KB text.
import { cutText } from './cutText';

export type Segment =
  | { kind: 'md'; text: string }
  /** A top-level fenced code block: its code (without the fences), language word, and whether it is closed yet. */
  | { kind: 'code'; text: string; lang: string; closed: boolean };

/** A Markdown piece ends at the first safe boundary after this many characters. */
const MIN_SEGMENT_CHARS = 2_000;
/** A piece with no safe boundary is still cut (at a line end) after this many: one task each. */
const MAX_SEGMENT_CHARS = 16_000;
/** Where a line longer than a piece is cut: at a word's start, looked for this far back from the piece's end. */
const CUT_WINDOW = 2_000;

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A link reference definition: it may be used anywhere in the text, so such a text is not split. */
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/**
 * After a blank line, a line that starts a new top-level block which cannot continue the one before
 * (not indented, so no list item or code continues; not a list marker, so no loose list goes on).
 */
function startsFreshBlock(line: string): boolean {
  const first = line.charCodeAt(0);
  return line !== '' && first !== 0x20 && first !== 0x09 && !LIST_ITEM.test(line);
}

/** Splits `text` into pieces whose concatenation (code pieces with their fences) is the text. */
export function segmentMarkdown(text: string): Segment[] {
  return segmentation(text).segments;
}

/** The pieces of a text and where each ends in it (for resuming the scan where the text grew). */
export interface Segmentation {
  text: string;
  segments: Segment[];
  ends: number[];
  /** The text ends inside its last piece, a top-level code block not closed yet: where to go on looking for its fence. */
  open?: OpenCode;
}

interface OpenCode {
  /** Where the code starts (after the opening fence's line). */
  codeStart: number;
  fence: Fence;
  lang: string;
  /** The start of the text's last line: every line before it is whole and does not close the block. */
  lastLine: number;
}

interface Fence {
  char: string;
  len: number;
}

function segmentation(text: string): Segmentation {
  if (
    (text.length <= MIN_SEGMENT_CHARS && !text.includes('```') && !text.includes('~~~')) ||
    LINK_DEFINITION.test(text)
  ) {
    return { text, segments: [{ kind: 'md', text }], ends: [text.length] };
  }
  const tail = scanFrom(text, 0);
  return tail.segments.length ? tail : { text, segments: [{ kind: 'md', text }], ends: [text.length] };
}

/**
 * `text` split as `segmentMarkdown` does, reusing `prev` (the split of an earlier text) when `text`
 * only grew from it, as a streamed reply does: pieces that end before the earlier text's last line
 * cannot change (every boundary is decided on the whole line that starts the next piece), so only
 * the rest is scanned again and the kept pieces are the same objects. Anything else: a full split.
 */
export function segmentGrown(prev: Segmentation | undefined, text: string): Segmentation {
  if (!prev || prev.segments.length < 2 || text.length < prev.text.length || !text.startsWith(prev.text))
    return segmentation(text);
  // Inside a code block whose opening line is whole (a fence line still being written may change).
  if (prev.open && prev.text.charCodeAt(prev.open.codeStart - 1) === 0x0a) return codeGrown(prev, prev.open, text);
  // The earlier text's last line may still change (a list marker or fence being typed). A cut inside
  // it (a line longer than a piece) is decided by the text before the cut, and a line that long has
  // its start settled: the pieces up to its last cut stay too.
  const stable = prev.text.lastIndexOf('\n') + 1;
  let keep = prev.segments.length - 1;
  while (keep > 0 && prev.ends[keep - 1]! >= stable && !insideLine(prev.text, prev.ends[keep - 1]!)) keep--;
  if (keep === 0) return segmentation(text);
  const from = prev.ends[keep - 1]!;
  // A link definition anywhere means no split at all (LINK_DEFINITION); the earlier text had none.
  if (LINK_DEFINITION.test(text.slice(stable))) return segmentation(text);
  const tail = scanFrom(text, from);
  return {
    text,
    segments: [...prev.segments.slice(0, keep), ...tail.segments],
    ends: [...prev.ends.slice(0, keep), ...tail.ends],
  };
}

/**
 * `text`, grown from `prev`, which ended inside a code block: only the lines from `prev`'s last one on are
 * looked at for its closing fence (a whole file streamed into one block was scanned again line by line,
 * a copy of each line, on every update). Once it closes, the rest is scanned as usual.
 */
function codeGrown(prev: Segmentation, open: OpenCode, text: string): Segmentation {
  // A link definition anywhere means no split at all (LINK_DEFINITION); the earlier text had none.
  if (LINK_DEFINITION.test(text.slice(open.lastLine))) return segmentation(text);
  const head = prev.segments.slice(0, -1);
  const headEnds = prev.ends.slice(0, -1);
  const scan = scanCode(text, open.lastLine, open.fence);
  const code: Segment = {
    kind: 'code',
    text: codeText(text, open.codeStart, scan.codeEnd),
    lang: open.lang,
    closed: scan.closed,
  };
  if (!scan.closed)
    return {
      text,
      segments: [...head, code],
      ends: [...headEnds, text.length],
      open: { ...open, lastLine: scan.lastLine },
    };
  const tail = scanFrom(text, scan.end);
  return {
    text,
    segments: [...head, code, ...tail.segments],
    ends: [...headEnds, scan.end, ...tail.ends],
    ...(tail.open && { open: tail.open }),
  };
}

/** The code of a block, from `start` to `end` (its closing fence's line, or the text's end), without its last newline. */
function codeText(text: string, start: number, end: number): string {
  const code = text.slice(start, end);
  return code.endsWith('\n') ? code.slice(0, -1) : code;
}

/**
 * Looks for the line that closes a code block, from `from` (a line start) on. Closed: where that line
 * starts (`codeEnd`) and ends (`end`). Not: the code runs to the text's end, and `lastLine` is where the
 * text's last line starts.
 */
function scanCode(
  text: string,
  from: number,
  fence: Fence,
): { closed: true; codeEnd: number; end: number } | { closed: false; codeEnd: number; lastLine: number } {
  let scan = from;
  let lastLine = from;
  while (scan < text.length) {
    const n = text.indexOf('\n', scan);
    const lineEnd = n < 0 ? text.length : n + 1;
    if (closesFence(text.slice(scan, n < 0 ? text.length : n).replace(/\r$/, ''), fence))
      return { closed: true, codeEnd: scan, end: lineEnd };
    lastLine = scan;
    scan = lineEnd;
  }
  // A text ending with a newline has an empty last line, which starts at its end.
  return { closed: false, codeEnd: text.length, lastLine: text.endsWith('\n') ? text.length : lastLine };
}

/** Whether a piece boundary at `at` is inside a line (a cut of a line longer than a piece), not at a line's start. */
function insideLine(text: string, at: number): boolean {
  return at > 0 && at < text.length && text.charCodeAt(at - 1) !== 0x0a;
}

/** A character a piece may start with that begins no block of its own (a heading, list, quote, fence, code…). */
const PLAIN_START = /^[^\s#>*+\-=_`~<|[\]!\d\uDC00-\uDFFF]/;

/**
 * Where to cut a line that runs past `limit` (a piece's most characters from `from`): the last word's
 * start before `limit`, else a character that begins no block, else `limit` (outside a surrogate pair).
 * Decided by the text up to `limit` only, so a streamed line is cut the same as it grows.
 */
function lineCut(text: string, from: number, limit: number): number {
  const low = Math.max(from + 1, limit - CUT_WINDOW);
  for (let at = limit; at > low; at--) if (/\s/.test(text[at - 1]!) && PLAIN_START.test(text[at]!)) return at;
  for (let at = limit; at > low; at--) if (PLAIN_START.test(text[at]!)) return at;
  return /[\uDC00-\uDFFF]/.test(text[limit]!) ? limit - 1 : limit;
}

/** Scans `text` from `start` (a piece boundary: a line's start, or a cut inside a line) to its end. */
function scanFrom(text: string, start: number): Segmentation {
  const out: Segment[] = [];
  const ends: number[] = [];
  let mdStart = start; // where the current Markdown piece began
  let pos = start;
  let prevBlank = true;
  // The rest of a line cut inside (insideLine): not a line's start, so it starts no block.
  let lineRest = insideLine(text, start);
  // A fence inside the Markdown (indented, in a list): no boundary inside it.
  let innerFence: Fence | undefined;

  const pushMd = (end: number) => {
    if (end <= mdStart) return;
    out.push({ kind: 'md', text: text.slice(mdStart, end) });
    ends.push(end);
  };

  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, nl < 0 ? text.length : nl).replace(/\r$/, '');

    if (innerFence) {
      if (closesFence(line, innerFence)) innerFence = undefined;
      prevBlank = false;
      pos = end;
      continue;
    }

    const fence = lineRest ? null : FENCE_OPEN.exec(line);
    if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      const info = { char: fence[2]![0]!, len: fence[2]!.length };
      if (fence[1] !== '') {
        innerFence = info;
        prevBlank = false;
        pos = end;
        continue;
      }
      // A top-level code block: its own piece, up to its closing fence (or the end, while streaming).
      pushMd(pos);
      const codeStart = end;
      const lang = fence[3]!.trim().split(/\s+/)[0] ?? '';
      const scan = scanCode(text, codeStart, info);
      out.push({ kind: 'code', text: codeText(text, codeStart, scan.codeEnd), lang, closed: scan.closed });
      if (!scan.closed) {
        ends.push(text.length);
        return { text, segments: out, ends, open: { codeStart, fence: info, lang, lastLine: scan.lastLine } };
      }
      pos = scan.end;
      ends.push(pos);
      mdStart = pos;
      prevBlank = true;
      continue;
    }

    const size = pos - mdStart;
    if (size >= MIN_SEGMENT_CHARS && ((prevBlank && startsFreshBlock(line)) || size >= MAX_SEGMENT_CHARS)) {
      pushMd(pos);
      mdStart = pos;
    }
    // A line longer than a piece (a base64 blob, minified text): laid out whole, a megabyte froze the lane.
    const lineEnd = nl < 0 ? text.length : nl;
    if (lineRest || !isBlank(line))
      while (lineEnd - Math.max(pos, mdStart) > MAX_SEGMENT_CHARS) {
        const cut = lineCut(text, Math.max(pos, mdStart), Math.max(pos, mdStart) + MAX_SEGMENT_CHARS);
        pushMd(cut);
        mdStart = cut;
      }
    prevBlank = !lineRest && isBlank(line);
    lineRest = false;
    pos = end;
  }
  pushMd(text.length);
  return { text, segments: out, ends };
}

function closesFence(line: string, open: Fence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1]![0] === open.char && m[1]!.length >= open.len;
}

function sameSegment(a: Segment, b: Segment): boolean {
  return (
    a.kind === b.kind &&
    a.text === b.text &&
    (a.kind !== 'code' || (b.kind === 'code' && a.lang === b.lang && a.closed === b.closed))
  );
}

/** `next`, with the pieces equal to `prev`'s at the same place kept as the same objects (nothing to redo). */
export function reuseSegments(prev: readonly Segment[], next: Segment[]): Segment[] {
  for (let i = 0; i < next.length && i < prev.length; i++) if (sameSegment(prev[i]!, next[i]!)) next[i] = prev[i]!;
  return next;
}

/** The first `lines` lines of `text` (a huge text shows its start until the person asks for all). */
export function firstLines(text: string, lines: number): string {
  let at = -1;
  for (let i = 0; i < lines; i++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at);
}

/** Lines of `text` (a final newline starts no line). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** `text` in pieces of `size` lines; every piece but the last keeps its final newline. */
export function chunkLines(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let at = start - 1;
    for (let i = 0; i < size; i++) {
      at = text.indexOf('\n', at + 1);
      if (at < 0) break;
    }
    const end = at < 0 ? text.length : at + 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out.length ? out : [''];
}

/** Characters of Markdown outside code blocks (code blocks collapse by themselves). */
export function markdownChars(segments: readonly Segment[]): number {
  let chars = 0;
  for (const s of segments) if (s.kind === 'md') chars += s.text.length;
  return chars;
}

/**
 * The start of a huge text: its pieces until about `lines` lines or `chars` characters are shown, the
 * last Markdown piece cut at a line end, or inside its line when one line is over the characters left
 * (a one-line answer of megabytes: a line cut laid out whole, the bubble was a million pixels tall).
 * A code block counts as the lines it shows collapsed (`codeLines`), and as its characters up to `chars`.
 */
export function previewSegments(
  segments: readonly Segment[],
  lines: number,
  codeLines: number,
  chars: number,
): Segment[] {
  const out: Segment[] = [];
  let left = lines;
  let charsLeft = chars;
  for (const s of segments) {
    if (left <= 0 || charsLeft <= 0) break;
    if (s.kind === 'code') {
      out.push(s);
      left -= Math.min(codeLines, lineCount(s.text));
      charsLeft -= Math.min(chars, s.text.length);
      continue;
    }
    const byLines = firstLines(s.text, left);
    const cut = byLines.length > charsLeft ? cutText(byLines, charsLeft) : byLines;
    out.push(cut === s.text ? s : { kind: 'md', text: cut });
    left -= lineCount(cut);
    charsLeft -= cut.length;
  }
  return out;
}
