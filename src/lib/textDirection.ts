// Which way a text the person types reads: its first letter decides (as the Unicode bidi algorithm's
// "first strong character" does, and as dir="auto" would, but Chromium's dir="auto" keeps a field right
// to left after a script empties it, so the message box stayed right to left after sending Hebrew).

/** Letters of the scripts written right to left. */
const RTL_LETTER =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u;
const LETTER = /\p{L}/u;

/** 'rtl' when the first letter of `text` is of a right-to-left script; 'ltr' otherwise (no letter: 'ltr'). */
export function textDirection(text: string): 'ltr' | 'rtl' {
  // The first letter only: a long paste is not scanned past it.
  const at = text.search(LETTER);
  return at >= 0 && RTL_LETTER.test(String.fromCodePoint(text.codePointAt(at)!)) ? 'rtl' : 'ltr';
}
