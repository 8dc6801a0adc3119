// A streamed piece of Markdown mostly grows by plain words at the end of its last paragraph. Putting
// the new HTML in with innerHTML makes new text nodes, and the browser lays out and shapes the whole
// piece again (a 30 KB paragraph: 10–60 ms per update, and again for the final text). Appending the
// words to the text node that already holds the rest lets it reuse what it knew of that text.

/** The closing tags (each with marked's newline after it) that end a rendered piece. */
const CLOSING_TAIL = /(?:<\/[a-z][a-z0-9]*>\n?)+$/;
const TAIL_TOKEN = /<\/[a-z][a-z0-9]*>|\n/g;
/**
 * Text as marked writes it: no markup, no character the HTML parser drops or rewrites, and only the
 * entities marked escapes with (decoded below as the parser would).
 */
const PLAIN = /^(?:[^<>&\0\r]|&(?:amp|lt|gt|quot|#39);)*$/;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * When `next` is `prev` with plain text inserted just before its closing tags (the words a streamed
 * update added), those closing tags and the text (as the parser reads it); otherwise undefined.
 */
export function grownText(prev: string, next: string): { tail: string; added: string } | undefined {
  if (next.length <= prev.length) return undefined;
  const tail = CLOSING_TAIL.exec(prev)?.[0];
  if (!tail || !next.endsWith(tail)) return undefined;
  const head = prev.slice(0, prev.length - tail.length);
  if (!next.startsWith(head)) return undefined;
  const added = next.slice(head.length, next.length - tail.length);
  return PLAIN.test(added) ? { tail, added: added.replace(/&[a-z#0-9]+;/g, (e) => ENTITIES[e]!) } : undefined;
}

/**
 * Changes `root`, which holds the parsed `prev`, into what parsing `next` gives, by appending text to
 * the node that ends before `prev`'s closing tags, when that is all that changed. Returns false (and
 * changes nothing) otherwise: the caller then puts `next` in whole.
 */
export function growHtml(root: Element, prev: string, next: string): boolean {
  const grown = grownText(prev, next);
  if (!grown) return false;
  // Walk the closing tags back from the end: each is the last element of the one before it, each
  // newline a text node of its own after it.
  let node: ChildNode | null = root.lastChild;
  for (const token of (grown.tail.match(TAIL_TOKEN) ?? []).reverse()) {
    if (token === '\n') {
      if (node?.nodeType !== Node.TEXT_NODE || (node as Text).data !== '\n') return false;
      node = node.previousSibling;
    } else {
      if (node?.nodeType !== Node.ELEMENT_NODE || (node as Element).localName !== token.slice(2, -1)) return false;
      node = node.lastChild;
    }
  }
  if (node?.nodeType !== Node.TEXT_NODE) return false;
  (node as Text).appendData(grown.added);
  return true;
}
