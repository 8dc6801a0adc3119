import { Show, createSignal, onCleanup, type JSX } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { authorName } from './author';
import { copyText } from './copyText';
import { CopyIcon, DeleteIcon, InfoIcon, ReplyIcon } from './icons';
import { useMessageList } from './listContext';
import { loadMarkdown } from './markdownModule';
import { setReplyTarget } from './replyTarget';

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

/** One icon button of the row: its name is both what a screen reader says and the hover title. */
function ActionButton(props: {
  label: string;
  title?: string;
  onClick: () => void;
  expanded?: boolean;
  controls?: string;
  children: JSX.Element;
}) {
  return (
    <button
      type="button"
      class="icon-button msg-action"
      aria-label={props.label}
      title={props.title ?? props.label}
      aria-expanded={props.expanded}
      aria-controls={props.controls}
      onClick={() => props.onClick()}
    >
      {props.children}
    </button>
  );
}

/** Reply, Copy and Delete for one message. Messages the gateway has not stored yet can only be copied. */
export function MessageActions(props: { message: MessageRow }) {
  const list = useMessageList();
  const mounted = useIdleMount();
  const [copied, setCopied] = createSignal(false);
  // Model, tokens and the full time: asked for, not on every bubble.
  const hasDetails = () =>
    props.message.role === 'assistant' &&
    props.message.status !== 'streaming' &&
    (!!props.message.model || props.message.tokens !== undefined);
  const detailsKey = () => `${props.message.message_id}:details`;
  const stored = () => !props.message.message_id.startsWith('local:') && props.message.status !== 'streaming';

  const reply = async () => {
    // Loaded long before anyone can press Reply; awaited in case it has not.
    const { markdownToText } = await loadMarkdown();
    setReplyTarget(list.lane, {
      message_id: props.message.message_id,
      role: props.message.role,
      author: authorName(props.message.role, list.agentName()),
      text: markdownToText(props.message.text),
    });
  };

  const copy = async () => {
    if (await copyText(props.message.text)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };

  return (
    <div class="msg-actions" role="group" aria-label="Message actions">
      <Show when={mounted()}>
        <Show when={stored()}>
          <ActionButton label="Reply" onClick={() => void reply()}>
            <ReplyIcon />
          </ActionButton>
        </Show>
        <ActionButton label="Copy" title="Copy text" onClick={() => void copy()}>
          <CopyIcon />
        </ActionButton>
        <Show when={hasDetails()}>
          <ActionButton
            label="Details"
            expanded={list.isOpen(detailsKey())}
            controls={`details-${props.message.message_id}`}
            onClick={() => list.toggleOpen(detailsKey())}
          >
            <InfoIcon size={18} />
          </ActionButton>
        </Show>
        <Show when={stored()}>
          <ActionButton label="Delete" onClick={() => list.requestDelete(props.message)}>
            <DeleteIcon />
          </ActionButton>
        </Show>
        <Show when={copied()}>
          <span class="msg-copied" role="status">
            Copied
          </span>
        </Show>
      </Show>
    </div>
  );
}
