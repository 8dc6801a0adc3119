// Where a long message is cut before its "Show all": the lane (CodeBlock, Markdown, MessageItem) and the
// lane head (headBlocks, LaneHead), painted before the lane's code, must cut at the same line, or the
// first screen moves when the lane takes over. A file of its own, so the head takes no component with it.

/** A code block longer than this shows only its first COLLAPSED_LINES until the person asks for all. */
export const COLLAPSE_AFTER_LINES = 40;
export const COLLAPSED_LINES = 20;
/** Lines of the person's own long text (a paste the composer kept collapsed) shown before its "Show all". */
export const OWN_PREVIEW_LINES = 6;
