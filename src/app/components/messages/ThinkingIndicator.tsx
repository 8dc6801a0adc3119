import { Show } from 'solid-js';
import type { LaneRow, MessageRow } from '../../../store/schema';
import { replyEnded } from '../composer/composerMode';

/** What the agent is doing, as the end of "Hermes is …". */
function doing(lane: LaneRow): string {
  switch (lane.busyReason) {
    case 'tool':
      return 'using tools…';
    case 'waiting_input':
      return 'waiting for your answer';
    case 'cron':
      return 'running a scheduled task…';
    default:
      return lane.busy ? 'thinking…' : 'typing…';
  }
}

function activityText(lane: LaneRow, agent: string): string {
  return `${agent} is ${doing(lane)}`;
}

/** The placeholder's words: its header names the agent, so only what it does ("Thinking…"). */
function placeholderText(lane: LaneRow): string {
  const text = doing(lane);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Whether the agent works (agent.busy / typing) while the conversation shows nothing of its turn yet:
 * once the turn's bubble is on screen ("Writing…", "Running word_count…") it says so itself, and once the
 * newest message is the agent's final reply the turn is over (even before agent.idle comes).
 */
export function awaitingReply(
  lane: LaneRow | undefined,
  newest: Pick<MessageRow, 'role' | 'status'> | undefined,
  turnShown: boolean,
): boolean {
  return !!lane && (lane.busy || lane.typing) && !replyEnded(newest) && !turnShown;
}

/**
 * The live region that announces the agent's work before its reply. Seen, that state is the placeholder
 * reply at the end of the conversation (WaitingReply): this region takes no room, so nothing moves when
 * a turn starts and ends. Stays mounted so changes are announced.
 */
export function ThinkingIndicator(props: {
  lane: LaneRow | undefined;
  /** The agent's name (useAgentName). */
  agent: string;
  replyEnded?: boolean;
  turnShown?: boolean;
}) {
  const active = () =>
    !!props.lane &&
    (props.lane.busy || props.lane.typing) &&
    (props.lane.busyReason === 'waiting_input' || (!props.replyEnded && !props.turnShown));
  return (
    <div class="thinking visually-hidden" role="status" aria-live="polite">
      <Show when={active()}>
        <span>{activityText(props.lane!, props.agent)}</span>
      </Show>
    </div>
  );
}

/**
 * Where the reply will appear, while the agent has not started it: the agent's bubble with a typing
 * indicator, as ChatGPT and Claude show it. The reply (or its tool line) takes this place over, so the
 * list only ever grows at its end. Hidden from assistive tech: ThinkingIndicator announces the same.
 * `paused`: what it says instead while the connection is down (createConnectionPause).
 */
export function WaitingReply(props: { lane: LaneRow; author: string; paused?: string }) {
  return (
    <article
      class="msg msg-assistant msg-working msg-waiting"
      classList={{ paused: !!props.paused }}
      aria-hidden="true"
    >
      <header class="msg-head">
        <span class="msg-author">{props.author}</span>
      </header>
      <p class="waiting-line">
        <span class="dots" />
        <span>{props.paused ?? placeholderText(props.lane)}</span>
      </p>
    </article>
  );
}
