import type { JSX } from 'solid-js';

/**
 * Where the "Attach" button goes (media issue). It receives the lane and adds attachments to the
 * next send through `onAttach` (local media ids); until the media work lands it renders nothing.
 */
export function AttachSlot(_props: { lane: string; onAttach: (mediaIds: string[]) => void }): JSX.Element {
  return null;
}
