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
const STRONG = /(\*\*|__)(?=\S)([^\n]*?\S)\1/g;
const STRIKE = /~~(?=\S)([^\n]*?\S)~~/g;
// Single * or _ emphasis only where it cannot be part of a word (snake_case, 2*3*4 stay).
const EMPHASIS = /(^|[^\w*])([*_])(?=\S)([^\n*_]*?\S)\2(?![\w*])/g;
const CODE = /`([^`\n]+)`/g;

/** Longer texts show as typed: the patterns are cheap on a screenful, not on a megabyte made to be slow. */
const MAX_CHARS = 20_000;

export function stripMarkdownMarks(text: string): string {
  if (text.length > MAX_CHARS) return text;
  return text
    .replace(FENCE, '')
    .replace(HEADING, '')
    .replace(QUOTE, '')
    .replace(BULLET, '$1• ')
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .replace(CODE, '$1')
    .replace(STRONG, '$2')
    .replace(STRIKE, '$1')
    .replace(EMPHASIS, '$1$3');
}
