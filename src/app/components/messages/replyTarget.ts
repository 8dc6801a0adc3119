// The message the composer is replying to, per lane. Set by a message's "Reply" action, read (and
// cleared after sending or on cancel) by the composer. Kept in memory: a reply target is a moment's intent.
import { createRoot, createSignal } from 'solid-js';
import type { Role } from '../../../protocol';

export interface ReplyTarget {
  message_id: string;
  role: Role;
  /** Who wrote it, as shown ("You", "Hermes"…). */
  author: string;
  /** The quoted message's text (the composer shows its first line). */
  text: string;
}

const [targets, setTargets] = createRoot(() => createSignal<Record<string, ReplyTarget | undefined>>({}));

/** The reply target of `lane` (reactive). */
export function replyTarget(lane: string): ReplyTarget | undefined {
  return targets()[lane];
}

/** Sets or clears (`undefined`) the reply target of `lane`. */
export function setReplyTarget(lane: string, target: ReplyTarget | undefined): void {
  setTargets((prev) => ({ ...prev, [lane]: target }));
}
