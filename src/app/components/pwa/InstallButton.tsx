import { Show } from 'solid-js';
import { canInstall, promptInstall } from '../../../pwa/install';

/** Shown only while the browser offers to install the app. */
export function InstallButton(props: { class?: string }) {
  return (
    <Show when={canInstall()}>
      <button class={props.class ?? 'button secondary'} type="button" onClick={() => void promptInstall()}>
        Install
      </button>
    </Show>
  );
}
