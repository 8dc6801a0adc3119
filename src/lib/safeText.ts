// Text made safe for HTML without marked or DOMPurify, so the code that needs only this does not load
// the Markdown pipeline (src/lib/markdown.ts) with it.

/** Languages a code block may name; anything else is dropped from the class (it only picks a highlighter). */
const LANG_PATTERN = /^[a-z0-9_+#.-]{1,32}$/i;

/** A code block's language word, if it is one we may put in a class; else ''. */
export function safeLanguage(info: string | undefined): string {
  const lang = (info ?? '').trim().split(/\s+/)[0] ?? '';
  return LANG_PATTERN.test(lang) ? lang.toLowerCase() : '';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Text as HTML with no markup but line breaks (escaped, so safe for `innerHTML` as it is). */
export function plainTextHtml(text: string): string {
  return `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
}
