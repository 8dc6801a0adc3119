import { Show, createMemo } from 'solid-js';
import { live } from '../../../store/live';
import { getMessage } from '../../../store/models/messages';
import { useIris } from '../../../runtime';
import { authorName, firstLine } from './author';
import { useMessageList } from './listContext';
import { markdownModule } from './markdownModule';
import { textDirection } from '../../../lib/textDirection';

/** The message a reply answers: its author and first line (as read, not as Markdown); choosing it scrolls there. */
export function ReplyQuote(props: { messageId: string }) {
  const { db } = useIris();
  const list = useMessageList();
  // eslint-disable-next-line solid/reactivity -- a message's reply_to never changes once stored
  const quoted = live(() => getMessage(db, props.messageId));
  const text = createMemo(() => {
    const q = quoted();
    // The Markdown source's first line until the pipeline has loaded (markdownModule.ts).
    const markdown = markdownModule();
    return q ? firstLine(markdown ? markdown.markdownToText(q.text) : q.text) : '';
  });
  return (
    <Show when={quoted()} fallback={<div class="quote quote-missing">Reply to an earlier message</div>}>
      {(q) => (
        <button
          type="button"
          class="quote"
          dir={textDirection(text())}
          aria-label={`In reply to ${authorName(q().role, list.agentName())}: ${text()}`}
          onClick={() => list.jumpTo(q().message_id)}
        >
          <span class="quote-author">{authorName(q().role, list.agentName())}</span>
          <span class="quote-text">{text() || '…'}</span>
        </button>
      )}
    </Show>
  );
}
