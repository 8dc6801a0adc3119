// When a text counts as long: the composer keeps it collapsed, and a message shows its first lines. Apart
// from longText.ts (which needs the protocol's frame limit) so the lane head can ask it on the first load.

/** A paste of this many characters or lines, or more, is kept collapsed instead of in the textbox. */
const COLLAPSE_CHARS = 5_000;
const COLLAPSE_LINES = 50;

/** Lines of `text` (a final newline starts no line), counting at most to `stopAt`. */
export function countLines(text: string, stopAt = Infinity): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) {
    if (++lines >= stopAt) return lines;
  }
  return lines;
}

/** Too long for the textbox: the composer shows it collapsed. */
export function isLongText(text: string): boolean {
  return text.length >= COLLAPSE_CHARS || countLines(text, COLLAPSE_LINES) >= COLLAPSE_LINES;
}
