import { Show } from 'solid-js';
import { live } from '../../../store/live';
import { iris } from '../../context';
import { authorName, firstLine } from './author';
import { useMessageList } from './listContext';

/** The message a reply answers: its author and first line; choosing it scrolls there. */
export function ReplyQuote(props: { messageId: string }) {
  const { db } = iris();
  const list = useMessageList();
  const quoted = live(() => db.messages.get(props.messageId));
  return (
    <Show
      when={quoted()}
      fallback={<div class="quote quote-missing">Reply to an earlier message</div>}
    >
      {(q) => (
        <button
          type="button"
          class="quote"
          aria-label={`In reply to ${authorName(q().role)}: ${firstLine(q().text, 80)}`}
          onClick={() => list.jumpTo(q().message_id)}
        >
          <span class="quote-author">{authorName(q().role)}</span>
          <span class="quote-text">{firstLine(q().text) || '…'}</span>
        </button>
      )}
    </Show>
  );
}
