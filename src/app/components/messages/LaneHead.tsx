import { For, createSignal } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
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
 * own code and the Markdown pipeline load (Root.tsx), over whatever part of the frame is there. Offline it
 * reads the same cache the lane does. Read once (it is on screen for a moment): `onShown` is called once
 * the rows are painted, or at once when there are none or the read failed.
 */
export function LaneHead(props: { lane: string; onShown: () => void }) {
  const { db } = useIris();
  const [rows, setRows] = createSignal<MessageRow[]>([]);
  // Root keys the head on the lane and passes one callback: neither changes under it.
  const { lane, onShown } = props; // eslint-disable-line solid/reactivity
  void laneMessages(db, lane, HEAD_MESSAGES).then(
    (found) => {
      setRows(found);
      // After the frame that paints them.
      if (found.length > 0) requestAnimationFrame(() => setTimeout(onShown, 0));
      else onShown();
    },
    () => onShown(),
  );
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
