// Markdown's marks taken off by pattern, without parsing: what the lane head (before the app's code) and
// a message (before the Markdown pipeline has loaded) show for a moment. "**Echo:**" flashed on every
// cold start as typed; a reader should see "Echo:". Not a renderer: what it misses shows as typed, and
// the pipeline's HTML replaces it a moment later.

const FENCE = /^ {0,3}(`{3,}|~{3,}).*$\n?/gm;
const HEADING = /^ {0,3}#{1,6}[ \t]+/gm;
const QUOTE = /^ {0,3}>[ \t]?/gm;
const BULLET = /^([ \t]*)[-*+][ \t]+/gm;
const IMAGE = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const LINK = /\[([^\]\n]+)\]\([^)\n]*\)/g;
const ANGLED = /<((?:https?|mailto):[^\s<>]+)>/g;
const STRONG = /(\*\*|__)(?=\S)([^\n]*?\S)\1/g;
const STRIKE = /~~(?=\S)([^\n]*?\S)~~/g;
// Single * or _ emphasis only where it cannot be part of a word (snake_case, 2*3*4 stay).
const EMPHASIS = /(^|[^\w*])([*_])(?=\S)([^\n*_]*?\S)\2(?![\w*])/g;
const CODE = /`([^`\n]+)`/g;

/** Longer texts show as typed: the patterns are cheap on a screenful, not on a megabyte made to be slow. */
const MAX_CHARS = 20_000;

/** The block marks taken off (fences, headings, quotes, bullets) and images' targets. */
function stripBlockMarks(text: string): string {
  return text.replace(FENCE, '').replace(HEADING, '').replace(QUOTE, '').replace(BULLET, '$1• ').replace(IMAGE, '$1');
}

/** The line marks taken off (fences, headings, quotes, bullets, links' and images' targets). */
function stripLineMarks(text: string): string {
  return stripBlockMarks(text).replace(LINK, '$1').replace(ANGLED, '$1');
}

export function stripMarkdownMarks(text: string): string {
  if (text.length > MAX_CHARS) return text;
  return stripLineMarks(text).replace(CODE, '$1').replace(STRONG, '$2').replace(STRIKE, '$1').replace(EMPHASIS, '$1$3');
}

/** A piece of a text with the inline mark it is shown with (none: plain). */
export interface MarkedRun {
  text: string;
  mark?: 'strong' | 'em' | 'code' | 'del' | 'link';
}

/**
 * Code, strong, strikethrough, emphasis, then links (the patterns above, as one: the first to start
 * wins): `[text](target)`, `<https://…>`, and a bare address as GFM links it (http(s):// or www., its
 * trailing punctuation left out).
 */
const INLINE = new RegExp(
  // Their back-references renumbered: strong's mark is group 2 here, emphasis's group 6.
  [
    CODE.source,
    STRONG.source.replace('\\1', '\\2'),
    STRIKE.source,
    EMPHASIS.source.replace('\\2', '\\6'),
    /\[(?<label>[^\]\n]+)\]\((?<target>[^)\n]*)\)/.source,
    ANGLED.source.replace('(', '(?<angled>'),
    /(?<bare>(?:https?:\/\/|www\.)[^\s<]*[^\s<?!.,:;*_~'")\]])/.source,
  ].join('|'),
  'g',
);

/** What the lane's Markdown links (markdown.ts's safeLinkHref): any target but another scheme than these. */
const LINKED_TARGET = /^\s*(?:(?:https?|mailto):|(?![a-zA-Z][\w+.-]*:))/;

/**
 * `text` with its marks taken off as stripMarkdownMarks does, cut into runs that keep the inline ones
 * (bold, `code`, italics, strikethrough, links): the lane head shows them as the lane will, for their
 * widths and colours. Marks inside a marked run are taken off. Text only: nothing here becomes HTML.
 */
export function markedRuns(text: string): MarkedRun[] {
  if (text.length > MAX_CHARS) return [{ text }];
  const plain = stripBlockMarks(text);
  const runs: MarkedRun[] = [];
  let at = 0;
  for (const m of plain.matchAll(INLINE)) {
    // Groups: 1 code; 2–3 strong; 4 strikethrough; 5 the character before an emphasis, 6 its mark, 7 its text.
    const lead = m[6] !== undefined ? (m[5] ?? '') : '';
    const before = plain.slice(at, m.index) + lead;
    if (before) runs.push({ text: before });
    const { label, target, angled, bare } = m.groups ?? {};
    if (m[1] !== undefined) runs.push({ text: m[1], mark: 'code' });
    else if (m[3] !== undefined) runs.push({ text: stripMarkdownMarks(m[3]), mark: 'strong' });
    else if (m[4] !== undefined) runs.push({ text: stripMarkdownMarks(m[4]), mark: 'del' });
    else if (label !== undefined)
      runs.push(LINKED_TARGET.test(target ?? '') ? { text: stripMarkdownMarks(label), mark: 'link' } : { text: label });
    else if (angled !== undefined || bare !== undefined) runs.push({ text: (angled ?? bare)!, mark: 'link' });
    else runs.push({ text: stripMarkdownMarks(m[7] ?? ''), mark: 'em' });
    at = m.index + m[0].length;
  }
  if (at < plain.length) runs.push({ text: plain.slice(at) });
  return runs;
}
