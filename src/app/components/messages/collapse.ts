// Where a long message is cut before its "Show all": the lane (CodeBlock, Markdown, MessageItem) and the
// lane head (headBlocks, LaneHead), painted before the lane's code, must cut at the same line, or the
// first screen moves when the lane takes over. A file of its own, so the head takes no component with it.

/** A code block longer than this shows only its first COLLAPSED_LINES until the person asks for all. */
export const COLLAPSE_AFTER_LINES = 40;
export const COLLAPSED_LINES = 20;
/** Lines of the person's own long text (a paste the composer kept collapsed) shown before its "Show all". */
export const OWN_PREVIEW_LINES = 6;
/**
 * A code block of more characters than this collapses too, however few its lines (minified code on one
 * line), and a collapsed block or a message's preview shows at most PREVIEW_CHARS of it: laid out whole,
 * a one-line text of megabytes froze the lane for seconds each time its row was drawn.
 */
export const COLLAPSE_AFTER_CHARS = 10_000;
export const PREVIEW_CHARS = 2_000;
/**
 * A finished text with more Markdown than this (code blocks collapse by themselves) shows its first
 * HUGE_PREVIEW_LINES (at most PREVIEW_CHARS) until the person asks for all.
 */
export const HUGE_CHARS = 50_000;
export const HUGE_PREVIEW_LINES = 40;

/** The button that shows a cut text whole: by its lines, or by its characters when it is one line. */
export function showAllLabel(lines: number, chars: number): string {
  return lines > 1
    ? `Show all ${lines.toLocaleString('en-US')} lines`
    : `Show all ${chars.toLocaleString('en-US')} characters`;
}
