// A long text's start, for a place that shows only its start: the layout of all of it would be wasted.

/**
 * `text` cut to about `chars` characters and an ellipsis: after the last space of the cut's final
 * tenth when it has one (not inside a word), never between a surrogate pair.
 */
export function cutText(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = chars;
  const space = text.lastIndexOf(' ', end);
  if (space > chars * 0.9) end = space;
  else if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}
