// Long texts in the composer, apart from the DOM: when a text is too long to edit in the textbox (it
// is kept collapsed instead, with its line count), what the message then says, and how it travels.
import { textFitsInFrame } from '../../../protocol';
import { countLines } from './longTextRule';

/** The name of the file a text too long for one frame is sent as. */
export const LONG_TEXT_FILENAME = 'pasted-text.txt';

/** A second long paste goes after the first, on its own line. */
export function appendPasted(pasted: string, more: string): string {
  if (pasted === '') return more;
  return pasted.endsWith('\n') ? pasted + more : `${pasted}\n${more}`;
}

/** The message: what was typed, then the collapsed text exactly as pasted. */
export function composeMessage(typed: string, pasted: string): string {
  if (pasted === '') return typed;
  if (typed.trim() === '') return pasted;
  return `${typed.replace(/\s+$/, '')}\n\n${pasted}`;
}

export type Outgoing =
  /** The text goes as the message's text. */
  | { kind: 'text'; text: string }
  /** Too long for one frame: `file` is sent as a text attachment, `text` (what was typed, maybe empty) as the message. */
  | { kind: 'attachment'; text: string; file: string };

/** How a message of typed + pasted text is sent: as it is when it fits in a frame, else with the long part as a file. */
export function planOutgoing(
  typed: string,
  pasted: string,
  fits: (text: string) => boolean = textFitsInFrame,
): Outgoing {
  const whole = composeMessage(typed, pasted);
  if (fits(whole)) return { kind: 'text', text: whole };
  // The typed words stay readable in the message when they fit on their own; the long text is the file.
  if (pasted !== '' && fits(typed)) return { kind: 'attachment', text: typed.trim() === '' ? '' : typed, file: pasted };
  return { kind: 'attachment', text: '', file: whole };
}

/** "3,000 lines · 156 KB" for the collapsed text. */
export function longTextSummary(text: string, formatBytes: (bytes: number) => string): string {
  const lines = countLines(text);
  const bytes = new Blob([text]).size;
  return `${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'} · ${formatBytes(bytes)}`;
}

/** The first line, shortened, to recognise the collapsed text by. */
export function previewLine(text: string, max = 100): string {
  const start = text.search(/\S/);
  if (start < 0) return '';
  const end = text.indexOf('\n', start);
  const line = text
    .slice(start, end < 0 ? Math.min(text.length, start + max + 1) : Math.min(end, start + max + 1))
    .trimEnd();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}
