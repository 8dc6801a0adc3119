// What another app shared into Iris, kept until the user picks a lane for it.
import type { PendingShare } from '../store/models/share';

// The row itself (key, shape, reads and writes) belongs to the store.
export { PENDING_SHARE_KEY, type PendingShare } from '../store/models/share';

/** The composer text for a share: its text and link, without repeating a link already in the text. */
export function shareToText(share: Pick<PendingShare, 'title' | 'text' | 'url'>): string {
  // Without words of the person's own, a page's title says what the link is (a browser shares title and url).
  const parts = [share.text.trim() || share.title.trim()];
  if (share.url && !share.text.includes(share.url)) parts.push(share.url.trim());
  return parts.filter(Boolean).join('\n');
}
