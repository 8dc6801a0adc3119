import { Show } from 'solid-js';
import { applyUpdate, updateReady } from '../../../pwa/register';
import './UpdatePrompt.css';

/** "A new version is ready" with Reload; the update waits for the user's choice. */
export function UpdatePrompt() {
  return (
    <Show when={updateReady()}>
      <div class="update-prompt" role="status">
        <span>A new version is ready</span>
        <button class="button" type="button" onClick={() => void applyUpdate()}>
          Reload
        </button>
      </div>
    </Show>
  );
}
