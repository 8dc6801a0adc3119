import { Match, Show, Switch } from 'solid-js';
import type { MessageRow, MessageStatus } from '../../../store/schema';
import { CheckIcon, ClockIcon } from './icons';

/**
 * The state of a message the person sent: pending (clock; and why, when the gateway has not answered),
 * sent (✓), read (✓✓), or failed with Retry.
 * `status`: the one to show (shownStatus: another device's message reads as read once answered).
 */
export function DeliveryState(props: { message: MessageRow; status: MessageStatus; onRetry: () => void }) {
  return (
    <Switch>
      <Match when={props.status === 'pending'}>
        {/* Why it still waits, on its own line above the time, as "Not sent" is (the clock stays by the time). */}
        <Show when={props.message.error}>
          <span class="delivery-waiting">{props.message.error}</span>
        </Show>
        <span class="delivery" data-delivery="pending" title="Waiting to send">
          <ClockIcon />
          <span class="visually-hidden">Pending</span>
        </span>
      </Match>
      <Match when={props.status === 'sent'}>
        <span class="delivery" data-delivery="sent" title="Sent">
          <CheckIcon />
          <span class="visually-hidden">Sent</span>
        </span>
      </Match>
      <Match when={props.status === 'read'}>
        <span class="delivery read" data-delivery="read" title="Read by the agent">
          <CheckIcon double />
          <span class="visually-hidden">Read</span>
        </span>
      </Match>
      <Match when={props.status === 'failed'}>
        <span class="delivery failed" data-delivery="failed">
          <span class="delivery-failed-text">
            Not sent<Show when={props.message.error}>: {props.message.error}</Show>
          </span>
          <Show when={props.message.client_id}>
            <button type="button" class="delivery-retry" onClick={() => props.onRetry()}>
              Retry
            </button>
          </Show>
        </span>
      </Match>
    </Switch>
  );
}
