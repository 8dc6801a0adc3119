import { For } from 'solid-js';
import { live } from '../../../store/live';
import { laneMessages } from '../../../store/models/messages';
import { useIris } from '../../../runtime';
import './LaneHead.css';

/** Messages in the head: more than a tall screen holds. */
const HEAD_MESSAGES = 12;
/** Characters of a message shown: the head is read for a moment, and a 1 MB answer must not cost its paint. */
const HEAD_CHARS = 1_500;

/**
 * The lane's newest messages as plain text (Solid text nodes: nothing from the gateway becomes HTML),
 * straight from the store: the first screen of a lane opened at start, while the app frame, the lane's
 * own code and the Markdown pipeline load (Root.tsx), over whatever part of the frame is there. Offline it reads the same cache the lane does.
 */
export function LaneHead(props: { lane: string }) {
  const { db } = useIris();
  // eslint-disable-next-line solid/reactivity -- Root keys the head on the lane: the lane never changes under it
  const rows = live(() => laneMessages(db, props.lane, HEAD_MESSAGES), []);
  return (
    <main class="lane-head" aria-busy="true" aria-label="Conversation (loading)">
      <ol class="lane-head-list">
        <For each={rows()}>
          {(row) => (
            <li class={`lane-head-msg lane-head-${row.role === 'user' ? 'user' : 'other'}`}>
              <p>{row.text.length > HEAD_CHARS ? `${row.text.slice(0, HEAD_CHARS)}…` : row.text}</p>
            </li>
          )}
        </For>
      </ol>
    </main>
  );
}
