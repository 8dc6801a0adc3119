// highlight.js output cut into lines that each stand alone: a token that spans lines (a block comment,
// a template string) is closed at each line end and opened again on the next line, so any run of
// lines can be put in the page by itself and is coloured as it is in the whole text.

const TAG_OR_NEWLINE = /<span class="[^"]*">|<\/span>|\n/g;

/** `html` (highlight.js output of a text) as one HTML string per line of that text, spans balanced in each. */
export function highlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let at = 0;
  for (const match of html.matchAll(TAG_OR_NEWLINE)) {
    line += html.slice(at, match.index);
    at = match.index + match[0].length;
    const token = match[0];
    if (token === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else {
      line += token;
      if (token === '</span>') open.pop();
      else open.push(token);
    }
  }
  lines.push(line + html.slice(at));
  return lines;
}
