import { Show } from 'solid-js';
import type { LaneRow } from '../../../store/schema';

function activityText(lane: LaneRow): string {
  switch (lane.busyReason) {
    case 'tool':
      return 'Hermes is using tools…';
    case 'waiting_input':
      return 'Hermes is waiting for your answer';
    case 'cron':
      return 'Hermes is running a scheduled task…';
    default:
      return lane.busy ? 'Hermes is thinking…' : 'Hermes is typing…';
  }
}

/**
 * Shown from agent.busy / typing until agent.idle, while the conversation itself shows nothing of the turn:
 * once the turn's bubble is on screen ("Writing…", "Running word_count…", "Thinking…") this line would say
 * the same thing a second time, so it goes. The live region stays mounted so changes are announced.
 */
export function ThinkingIndicator(props: {
  lane: LaneRow | undefined;
  replyEnded?: boolean;
  /** The turn's bubble (a streaming reply, or its tool activity before the reply) is in the conversation. */
  turnShown?: boolean;
}) {
  const active = () =>
    !!props.lane &&
    (props.lane.busy || props.lane.typing) &&
    (props.lane.busyReason === 'waiting_input' || (!props.replyEnded && !props.turnShown));
  return (
    <div class="thinking" role="status" aria-live="polite">
      <Show when={active()}>
        <span class="dots" aria-hidden="true" />
        <span>{activityText(props.lane!)}</span>
      </Show>
    </div>
  );
}
