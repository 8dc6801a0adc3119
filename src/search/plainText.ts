// A message's Markdown as the words a person reads once it is rendered: no `**`, fences, pipes or link
// targets. Search snippets are cut from this, so they show what the conversation shows. Small and
// line-based on purpose: it also has to clean a gateway's snippet, a window cut out of the Markdown
// (an emphasis may be opened before the window and closed in it).

/** Plain text of Markdown, one space between blocks. Never HTML: the result is rendered as text. */
export function plainFromMarkdown(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const raw of markdown.split('\n')) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fenceMark && (fence === undefined || fenceMark.startsWith(fence))) {
      fence = fence === undefined ? fenceMark : undefined;
      continue; // the fence and its language name are not text
    }
    if (fence !== undefined) {
      lines.push(raw); // code reads as it is
      continue;
    }
    if (/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(raw)) continue; // a table's rule
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) continue; // a horizontal rule
    let line = raw
      .replace(/^\s{0,3}#{1,6}\s+/, '') // heading
      .replace(/^(\s*>)+\s?/, '') // quote
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, (m) => (/\d/.test(m) ? m.trim() + ' ' : '')); // list: numbers stay
    if (/^\s*\|.*\|\s*$/.test(line))
      line = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim())
        .join('  ');
    lines.push(inline(line));
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

function inline(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // image: its alt text
      .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1') // link: its words
      .replace(/<(https?:\/\/[^>\s]+)>/g, '$1') // autolink
      .replace(/`{3,}[\w+#.-]*/g, '') // a fence inside a flattened snippet, with its language
      .replace(/`+([^`]*)`+/g, '$1') // inline code
      // Emphasis: runs of * or _ at a word's edge (never inside snake_case or 2*3*4).
      .replace(/(^|[\s(["'])(\*{1,3}|_{1,3})(?=\S)/g, '$1')
      .replace(/(\S)(\*{1,3}|_{1,3})(?=$|[\s).,;:!?"'\]])/g, '$1')
      .replace(/~~(?=\S)/g, '') // strikethrough opening… (no lookbehind: Safari before 16.4 cannot parse one)
      .replace(/(\S)~~/g, '$1') // …and closing
      // A window cut inside the Markdown can leave a lone marker ("…:** Plan"): drop it.
      .replace(/(^|\s)[*_`]{1,3}(?=\s|$)/g, '$1')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1') // escapes
  );
}

/**
 * A gateway's snippet, cut from the Markdown by characters: its plain text, without the partial words
 * at a cut edge (marked by the gateway's "…"), with " … " where text was left out.
 */
export function plainSnippet(snippet: string): string {
  let text = snippet.trim();
  const cutStart = text.startsWith('…');
  const cutEnd = text.endsWith('…');
  if (cutStart) text = text.slice(1);
  if (cutEnd) text = text.slice(0, -1);
  let plain = plainFromMarkdown(text);
  // The first and last words at a cut are likely halves of words.
  if (cutStart && !/^\s/.test(text)) plain = plain.replace(/^\S+\s*/, '');
  if (cutEnd && !/\s$/.test(text)) plain = plain.replace(/\s*\S+$/, '');
  plain = plain.replace(/^[\s,.;:!?)\]]+/, '');
  if (plain === '') plain = plainFromMarkdown(text);
  return (cutStart ? '… ' : '') + plain + (cutEnd ? ' …' : '');
}
