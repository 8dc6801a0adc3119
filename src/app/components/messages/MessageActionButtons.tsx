// The buttons of a message's actions: their own chunk, loaded at the first idle moment after a row is
// painted (MessageActions.tsx); no row needs them to be shown.
import { Show, createSignal, type JSX } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { authorName } from './author';
import { copyText } from './copyText';
import { CopyIcon, DeleteIcon, InfoIcon, ReplyIcon } from './icons';
import { isUnsent } from './deliveryStatus';
import { useMessageList } from './listContext';
import { loadMarkdown } from './markdownModule';
import { setReplyTarget } from './replyTarget';

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

/**
 * Reply, Copy, Details and Delete for one message. A message the gateway has not stored yet can be
 * copied, and one of mine still waiting or refused can be deleted (it is then not sent).
 */
export function MessageActionButtons(props: { message: MessageRow }) {
  const list = useMessageList();
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
    <>
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
      <Show when={stored() || isUnsent(props.message)}>
        <ActionButton label="Delete" onClick={() => list.requestDelete(props.message)}>
          <DeleteIcon />
        </ActionButton>
      </Show>
      <Show when={copied()}>
        <span class="msg-copied" role="status">
          Copied
        </span>
      </Show>
    </>
  );
}
