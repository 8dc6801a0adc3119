import { Show } from 'solid-js';
import { databaseUpgraded } from '../../../pwa/databaseUpgrade';
import { applyUpdate, updateReady } from '../../../pwa/register';
import './UpdatePrompt.css';

/**
 * "A new version is ready" with Reload; the update waits for the user's choice. Also when a tab of a newer
 * build has upgraded the database: this tab can no longer read or write it, and Reload brings that build.
 */
export function UpdatePrompt() {
  const reload = () => {
    if (updateReady()) void applyUpdate();
    else window.location.reload();
  };
  return (
    <Show when={updateReady() || databaseUpgraded()}>
      <div class="update-prompt" role="status">
        <span>{databaseUpgraded() ? 'Iris was updated in another tab' : 'A new version is ready'}</span>
        <button class="button" type="button" onClick={reload}>
          Reload
        </button>
      </div>
    </Show>
  );
}
