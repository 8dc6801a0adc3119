import { useNavigate } from '@solidjs/router';
import { For, Show, createEffect, createSignal, onCleanup, onMount } from 'solid-js';
import { liveOnKeeping } from '../../../store/live';
import { getChannel } from '../../../store/models/channels';
import { dismissToast, toastLifetime, visibleToasts } from '../../../store/models/toasts';
import type { ToastRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { laneHref } from '../channels/channelTree';
import { Icon } from '../shell/Icon';
import { ERROR_TOAST_KIND } from './toastWrites';
import './Toasts.css';

function Toast(props: { toast: ToastRow; onOpen: (toast: ToastRow) => void; onDismiss: (toast: ToastRow) => void }) {
  const [held, setHeld] = createSignal(0);
  // How long it stays unless the pointer or focus rests on it; one asking for an answer stays until dealt with.
  // eslint-disable-next-line solid/reactivity -- one Toast per toast id (For over ids): its lifetime is fixed when it appears
  const lifetime = toastLifetime(props.toast);
  let remaining = lifetime ?? 0;
  let startedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    if (lifetime === undefined) return;
    startedAt = Date.now();
    timer = setTimeout(() => props.onDismiss(props.toast), remaining);
  };
  const pause = () => {
    setHeld((n) => n + 1);
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
      remaining -= Date.now() - startedAt;
    }
  };
  const resume = () => {
    setHeld((n) => Math.max(0, n - 1));
    if (held() === 0 && timer === undefined) start();
  };
  // A toast that arrives while the page is hidden waits for the user to come back.
  const onVisibility = () => (document.hidden ? pause() : resume());
  onMount(() => {
    if (document.hidden) setHeld(1);
    else start();
    document.addEventListener('visibilitychange', onVisibility);
  });
  onCleanup(() => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  });

  const isError = () => props.toast.kind === ERROR_TOAST_KIND;
  const content = () => (
    <>
      <span class="toast-title">{props.toast.title}</span>
      <Show when={props.toast.body}>
        <span class="toast-body">{props.toast.body}</span>
      </Show>
    </>
  );
  return (
    <li
      class="toast"
      classList={{ error: isError() }}
      onPointerEnter={pause}
      onPointerLeave={resume}
      onFocusIn={pause}
      onFocusOut={resume}
    >
      <Show when={props.toast.lane} fallback={<div class="toast-main">{content()}</div>}>
        <button type="button" class="toast-main" onClick={() => props.onOpen(props.toast)}>
          {content()}
        </button>
      </Show>
      <button
        type="button"
        class="icon-button toast-dismiss"
        aria-label="Dismiss"
        onClick={() => props.onDismiss(props.toast)}
      >
        <Icon name="close" />
      </button>
    </li>
  );
}

/**
 * In-app toasts: the gateway's notifications (each opens its lane) and errors of the user's own
 * actions, at most two at once, under the top bar. Polite live region; news goes after ~5 s, errors
 * after ~8 s, one asking for an answer stays until opened or closed; any can be dismissed.
 */
export function Toasts() {
  const { db, client } = useIris();
  const navigate = useNavigate();
  const toasts = liveOnKeeping(client.activeLane, (lane) => visibleToasts(db, lane), [] as ToastRow[]);
  // A reminder of the lane on screen: its message (role cron) is right there, so no banner over it, now
  // or when the person leaves the lane (protocol.py leaves the in-app banner to the app).
  const shownInLane = (toast: ToastRow) =>
    toast.kind === 'cron' && toast.lane !== undefined && toast.lane === client.activeLane();
  const ids = () => toasts().flatMap((t) => (shownInLane(t) ? [] : [t.id!]));

  const dismiss = (toast: ToastRow) => {
    if (toast.id !== undefined)
      void dismissToast(db, toast.id).catch((err: unknown) => console.warn('iris: could not dismiss a toast', err));
  };
  createEffect(() => {
    for (const toast of toasts()) if (shownInLane(toast)) dismiss(toast);
  });
  const open = async (toast: ToastRow) => {
    dismiss(toast);
    if (!toast.lane) return;
    const channel = await getChannel(db, toast.lane);
    navigate(channel ? laneHref(channel) : `/c/${encodeURIComponent(toast.lane)}`);
  };

  return (
    <div class="toasts" aria-live="polite" aria-relevant="additions">
      <ol class="toast-list" aria-label="Notifications">
        <For each={ids()}>
          {(id) => (
            <Show when={toasts().find((t) => t.id === id)}>
              {(toast) => <Toast toast={toast()} onOpen={(t) => void open(t)} onDismiss={dismiss} />}
            </Show>
          )}
        </For>
      </ol>
    </div>
  );
}
