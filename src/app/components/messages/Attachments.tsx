import { For } from 'solid-js';
import type { MediaRef } from '../../../protocol';

function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * A message's attachments as chips (name, kind, size), all plain text. The media feature renders the
 * real thing (images, players, downloads) and takes this slot over.
 */
export function Attachments(props: { media: MediaRef[] }) {
  return (
    <ul class="attachments" aria-label="Attachments">
      <For each={props.media}>
        {(ref) => (
          <li class="attachment">
            <span class="attachment-name">{ref.filename || 'attachment'}</span>
            <span class="attachment-meta">
              {ref.kind} · {formatSize(ref.size)}
            </span>
          </li>
        )}
      </For>
    </ul>
  );
}
