import { Show, createSignal, onCleanup } from 'solid-js';
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
 * When a row's buttons are put in: in an idle moment after the row is painted (or within
 * BUTTONS_WITHIN). They are hidden until the message is hovered or focused, and mounting them was a
 * quarter of mounting a row: a lane scrolled fast mounts rows that leave the screen a frame later.
 */
function useIdleMount() {
  const [mounted, setMounted] = createSignal(false);
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => setMounted(true), { timeout: BUTTONS_WITHIN });
    onCleanup(() => cancelIdleCallback(handle));
  } else {
    const handle = setTimeout(() => setMounted(true), 0);
    onCleanup(() => clearTimeout(handle));
  }
  return mounted;
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
          <button
            type="button"
            class="icon-button msg-action"
            aria-label="Reply"
            title="Reply"
            onClick={() => void reply()}
          >
            <ReplyIcon />
          </button>
        </Show>
        <button
          type="button"
          class="icon-button msg-action"
          aria-label="Copy"
          title="Copy text"
          onClick={() => void copy()}
        >
          <CopyIcon />
        </button>
        <Show when={hasDetails()}>
          <button
            type="button"
            class="icon-button msg-action"
            aria-label="Details"
            title="Details"
            aria-expanded={list.isOpen(detailsKey())}
            aria-controls={`details-${props.message.message_id}`}
            onClick={() => list.toggleOpen(detailsKey())}
          >
            <InfoIcon size={18} />
          </button>
        </Show>
        <Show when={stored()}>
          <button
            type="button"
            class="icon-button msg-action"
            aria-label="Delete"
            title="Delete"
            onClick={() => list.requestDelete(props.message)}
          >
            <DeleteIcon />
          </button>
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
