import { Match, Show, Switch, createMemo } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MessageMedia } from '../media/MessageMedia';
import { AlarmIcon, InfoIcon } from './icons';
import { authorName } from './author';
import { OWN_PREVIEW_LINES } from './collapse';
import { DeliveryState } from './DeliveryState';
import { shownStatus } from './deliveryStatus';
import { useMessageList } from './listContext';
import { Markdown } from './Markdown';
import { MessageActions } from './MessageActions';
import { ReplyQuote } from './ReplyQuote';
import { TurnSummary } from './TurnSummary';
import { formatFull, formatTime, isoTime } from './time';
import { isLongText } from '../composer/longTextRule';

/**
 * Where the list keeps what the person opened in their own message: by its client_id, which the pending
 * bubble and the gateway's echo share (the echo's message_id is new), so an opened paste stays open
 * when the echo replaces the bubble.
 */
function ownOpenKey(message: MessageRow): string {
  return message.client_id ? `client:${message.client_id}` : message.message_id;
}

/** The person's own text that the composer kept collapsed (a long paste) shows its first lines, then "Show all". */
const OWN_LONG_TEXT = { is: isLongText, previewLines: OWN_PREVIEW_LINES };

/** One message of the conversation, shaped by who sent it. */
export function MessageItem(props: { message: MessageRow }) {
  return (
    <Switch>
      <Match when={props.message.role === 'user'}>
        <UserMessage message={props.message} />
      </Match>
      <Match when={props.message.role === 'assistant'}>
        <AssistantMessage message={props.message} />
      </Match>
      <Match when={true}>
        <NoticeMessage message={props.message} />
      </Match>
    </Switch>
  );
}

function Time(props: { ts: number }) {
  return (
    <time class="msg-time" datetime={isoTime(props.ts)} title={formatFull(props.ts)}>
      {formatTime(props.ts)}
    </time>
  );
}

function useHighlight(message: () => MessageRow) {
  const list = useMessageList();
  return () => list.highlighted() === message().message_id;
}

function label(message: MessageRow, agent: string): string {
  return `${authorName(message.role, agent)}, ${formatTime(message.ts)}`;
}

function UserMessage(props: { message: MessageRow }) {
  const { client } = useIris();
  const list = useMessageList();
  const highlighted = useHighlight(() => props.message);
  return (
    <article
      class="msg msg-user"
      classList={{ 'is-target': highlighted(), failed: props.message.status === 'failed' }}
      aria-label={label(props.message, list.agentName())}
      tabindex="-1"
      data-message-id={props.message.message_id}
    >
      <div class="bubble">
        <Show when={props.message.reply_to}>{(id) => <ReplyQuote messageId={id()} />}</Show>
        <MessageMedia message={props.message} />
        <Show when={props.message.text}>
          <Markdown text={props.message.text} openKey={ownOpenKey(props.message)} long={OWN_LONG_TEXT} />
        </Show>
      </div>
      <div class="msg-foot">
        <Time ts={props.message.ts} />
        <DeliveryState
          message={props.message}
          status={shownStatus(props.message, list.agentTs())}
          onRetry={() => props.message.client_id && void client.retry(props.message.client_id)}
        />
      </div>
      <MessageActions message={props.message} />
    </article>
  );
}

function AssistantMessage(props: { message: MessageRow }) {
  const { client } = useIris();
  const list = useMessageList();
  const highlighted = useHighlight(() => props.message);
  const final = () => props.message.status !== 'streaming';
  // While it streams, the newest text this tab received, before the store has it (client.arrivingText).
  // After reasoning, only once the store has its first text: that write also ends "Thinking…" with the
  // time it took. Without reasoning, from the first text received: under load the first write and the
  // lane's re-read took longer than a whole 5,000-update reply, which then showed nothing until its
  // stop was stored (issue 17). A memo, so a re-read row with the text already shown renders nothing again.
  const text = createMemo(
    () =>
      (!final() && (props.message.text || !props.message.reasoning) && client.arrivingText(props.message.message_id)) ||
      props.message.text,
  );
  const activity = createMemo(() => (props.message.turn ? list.win.activity[props.message.turn] : undefined));
  const paused = () => (final() ? undefined : list.paused());
  return (
    <article
      class="msg msg-assistant"
      classList={{ 'is-target': highlighted(), streaming: !final(), paused: !!paused() }}
      aria-label={label(props.message, list.agentName())}
      aria-busy={!final()}
      tabindex="-1"
      data-message-id={props.message.message_id}
    >
      <header class="msg-head">
        <span class="msg-author">{list.agentName()}</span>
        <Time ts={props.message.ts} />
        <MessageActions message={props.message} />
      </header>
      <Show when={props.message.reply_to}>{(id) => <ReplyQuote messageId={id()} />}</Show>
      <TurnSummary
        id={props.message.turn ?? props.message.message_id}
        turn={props.message.turn}
        items={activity() ?? []}
        reasoning={props.message.reasoning}
        thoughtMs={props.message.thought_ms}
        streaming={!final()}
        hasText={!!text()}
      />
      <Show
        when={text()}
        fallback={
          <Show when={!final() && !props.message.reasoning && !paused()}>
            <p class="msg-typing">
              <span class="dots" aria-hidden="true" />
              <span class="visually-hidden">Writing…</span>
            </p>
          </Show>
        }
      >
        <Markdown
          text={text()}
          final={final()}
          class={final() || paused() ? '' : 'md-streaming'}
          openKey={props.message.message_id}
        />
      </Show>
      <MessageMedia message={props.message} />
      <Show when={paused()}>{(words) => <p class="msg-paused">{words()}</p>}</Show>
      <Show when={final() && props.message.stopped}>
        <p class="msg-stopped">Stopped</p>
      </Show>
      <Show when={final() && list.isOpen(`${props.message.message_id}:details`)}>
        <p class="msg-meta" id={`details-${props.message.message_id}`}>
          <span>{formatFull(props.message.ts)}</span>
          <Show when={props.message.model}>
            <span class="msg-model">{props.message.model}</span>
          </Show>
          <Show when={props.message.tokens !== undefined}>
            <span class="msg-tokens">{props.message.tokens!.toLocaleString()} tokens</span>
          </Show>
        </p>
      </Show>
    </article>
  );
}

/** cron and system messages: set apart from the conversation. */
function NoticeMessage(props: { message: MessageRow }) {
  const list = useMessageList();
  const highlighted = useHighlight(() => props.message);
  return (
    <article
      class="msg msg-notice"
      classList={{ 'is-target': highlighted(), [`msg-${props.message.role}`]: true }}
      aria-label={label(props.message, list.agentName())}
      tabindex="-1"
      data-message-id={props.message.message_id}
    >
      <div class="notice-card">
        <div class="notice-head">
          <span class="notice-label">
            {props.message.role === 'cron' ? <AlarmIcon /> : <InfoIcon />}
            {authorName(props.message.role, list.agentName())}
          </span>
          <Time ts={props.message.ts} />
        </div>
        <Markdown text={props.message.text} openKey={props.message.message_id} />
      </div>
      <MessageActions message={props.message} />
    </article>
  );
}

/** A turn still working, before any reply text exists: its line of tool activity. */
export function PendingTurn(props: { turn: string }) {
  const list = useMessageList();
  return (
    <article
      class="msg msg-assistant msg-working"
      classList={{ paused: !!list.paused() }}
      aria-label={`${list.agentName()}, working`}
      aria-busy="true"
    >
      <header class="msg-head">
        <span class="msg-author">{list.agentName()}</span>
      </header>
      {/* Keyed by the turn, as the reply that takes these cards over is: an opened line stays open. */}
      <TurnSummary
        id={props.turn}
        turn={props.turn}
        items={list.win.activity[props.turn] ?? []}
        streaming
        hasText={false}
      />
      <Show when={list.paused()}>{(words) => <p class="msg-paused">{words()}</p>}</Show>
    </article>
  );
}
