import { Show } from 'solid-js';
import { MediaIcon } from './MediaIcon';

/** Shown while files are dragged over the lane: dropping attaches them. */
export function DropOverlay(props: { show: boolean }) {
  return (
    <Show when={props.show}>
      <div class="drop-overlay" aria-hidden="true">
        <div class="drop-card">
          <MediaIcon name="attach" size={32} />
          <span>Drop files to attach them</span>
        </div>
      </div>
    </Show>
  );
}
