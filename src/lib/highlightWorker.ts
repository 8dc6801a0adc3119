// The highlighting worker: highlight.js off the main thread. A whole code block is highlighted at once
// (so a comment or string spanning many lines is coloured right) and cut into lines that stand alone
// (`highlightedLines`); the page asks for the lines on screen, checks them and puts them in.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { highlightedLines } from './highlightLines';

export interface HighlightRequest {
  id: number;
  code: string;
  /** The block's language word (one it does not know, or none: guessed from the block's start). */
  lang: string;
  /** The lines wanted, [from, to) (the page asks for the lines on screen). */
  from: number;
  to: number;
}

export interface HighlightReply {
  id: number;
  /**
   * HTML of lines [from, to) of `code`, joined by newlines, spans balanced in each line; undefined
   * when it could not be highlighted. One string, not an array: thousands of strings took the page
   * 100 ms to receive.
   */
  html?: string;
}

const languages = {
  bash,
  c,
  cpp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  markdown,
  plaintext,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

/** Guessing tries every language: only on the start of a block. */
const GUESS_CHARS = 3_000;

function highlight(code: string, lang: string): string[] | undefined {
  try {
    const language =
      lang && hljs.getLanguage(lang) ? lang : (hljs.highlightAuto(code.slice(0, GUESS_CHARS)).language ?? 'plaintext');
    return highlightedLines(hljs.highlight(code, { language, ignoreIllegals: true }).value);
  } catch {
    return undefined;
  }
}

/** The last few blocks highlighted: each asks again for the lines of each piece that comes on screen. */
const KEEP_BLOCKS = 4;
const recent = new Map<string, string[] | undefined>();

function linesOf(code: string, lang: string): string[] | undefined {
  const key = `${lang}\n${code}`;
  if (!recent.has(key)) {
    recent.set(key, highlight(code, lang));
    if (recent.size > KEEP_BLOCKS) recent.delete(recent.keys().next().value!);
  }
  return recent.get(key);
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(reply: HighlightReply): void;
};

scope.onmessage = ({ data }) => {
  const lines = linesOf(data.code, data.lang);
  scope.postMessage({ id: data.id, html: lines?.slice(data.from, data.to).join('\n') });
};
