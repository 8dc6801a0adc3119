import { Show, createSignal, onCleanup } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { lazyPart } from '../../lazy/lazyPart';

// The buttons (and what they do) load with the first idle moment after a row is painted, not with the lane.
const loadButtons = () => import('./MessageActionButtons');
const MessageActionButtons = lazyPart(() => loadButtons().then((m) => m.MessageActionButtons));
/** Fetches the buttons' chunk in an idle moment (MessageList), before any row asks for it. */
export const loadMessageActions = loadButtons;

/** How long the buttons may wait for an idle moment after their row is mounted (ms). */
const BUTTONS_WITHIN = 300;

/**
 * Whether the person moves with the keyboard: from their first Tab on, every row puts its buttons in
 * at once. Tab moves focus after its keydown is handled, so the row's buttons are there to be reached;
 * otherwise a row mounted a moment before was skipped.
 */
const [tabbing, setTabbing] = createSignal(false);
let listening = false;
function watchForTab(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    setTabbing(true);
    document.removeEventListener('keydown', onKey, true);
  };
  document.addEventListener('keydown', onKey, true);
}

/**
 * When a row's buttons are put in: in an idle moment after the row is painted (or within
 * BUTTONS_WITHIN), or at once for a person using the keyboard. They are hidden until the message is
 * hovered or focused, and mounting them was a quarter of mounting a row: a lane scrolled fast mounts
 * rows that leave the screen a frame later.
 */
function useIdleMount() {
  const [idle, setIdle] = createSignal(false);
  watchForTab();
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => setIdle(true), { timeout: BUTTONS_WITHIN });
    onCleanup(() => cancelIdleCallback(handle));
  } else {
    const handle = setTimeout(() => setIdle(true), 0);
    onCleanup(() => clearTimeout(handle));
  }
  return () => idle() || tabbing();
}

/** Reply, Copy and Delete for one message. Messages the gateway has not stored yet can only be copied. */
export function MessageActions(props: { message: MessageRow }) {
  const mounted = useIdleMount();
  return (
    <div class="msg-actions" role="group" aria-label="Message actions">
      <Show when={mounted()}>
        <MessageActionButtons message={props.message} />
      </Show>
    </div>
  );
}
