// Per-lane figures for the sidebar, read from the cache: unread count and last message preview.
import type { IrisDB } from '../../../store/db';
import { laneGlance } from '../../../store/models/messages';
import type { MessageRow } from '../../../store/schema';

export interface LaneSummary {
  /** Messages newer than the lane's read mark that the user did not write. */
  unread: number;
  /** The last message as one line of plain text ('' when the lane is empty). */
  preview: string;
  previewRole?: MessageRow['role'];
}

const PREVIEW_CHARS = 80;
/** A preview is made from at most this much of the text's start. */
const PREVIEW_SOURCE_CHARS = PREVIEW_CHARS * 25;

/** One line of plain text from Markdown: drops markup, keeps the words. */
export function plainPreview(text: string, max = PREVIEW_CHARS): string {
  // One line needs only the start: eight passes over a whole file on every streamed update did not.
  const plain = text
    .slice(0, max * 25)
    .replace(/```[^\n]*\n?/g, ' ') // code fence markers (their content stays)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]*>/g, ' ') // raw HTML tags
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '') // headings, quotes, list markers
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}

/** Unread count and preview of one lane, read together (the store's own definitions). */
export async function laneSummary(db: IrisDB, lane: string): Promise<LaneSummary> {
  // A reply streaming past the start its preview is made from is not read again until it ends.
  const { unread, newest: last } = await laneGlance(db, lane, PREVIEW_SOURCE_CHARS);
  return {
    unread,
    preview: last ? plainPreview(last.text || (last.media?.length ? 'Attachment' : '')) : '',
    previewRole: last?.role,
  };
}

/** The preview as the channel list shows it: whose it is, for the person's own and a reminder, and its text. */
export function channelPreview(summary: LaneSummary | undefined): { who?: string; text: string } | undefined {
  if (!summary?.preview) return undefined;
  if (summary.previewRole === 'user') return { who: 'You:', text: summary.preview };
  if (summary.previewRole === 'cron') return { who: 'Reminder:', text: summary.preview };
  return { text: summary.preview };
}
