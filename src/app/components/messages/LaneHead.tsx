import { For, Show, createSignal } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { getChannel } from '../../../store/models/channels';
import { laneMessages } from '../../../store/models/messages';
import { useIris } from '../../../runtime';
import { Icon } from '../shell/Icon';
import { getSetting } from '../../../store/models/settings';
import { agentName } from '../status/agentInfo';
import { authorName } from './author';
import { formatTime } from './time';
import './LaneHead.css';

/** Messages in the head: more than a tall screen holds. */
const HEAD_MESSAGES = 12;
/** Characters of a message shown: the head is read for a moment, and a 1 MB answer must not cost its paint. */
const HEAD_CHARS = 1_500;

/**
 * The lane's newest messages as plain text (Solid text nodes: nothing from the gateway becomes HTML),
 * straight from the store: the first screen of a lane opened at start, while the app frame, the lane's
 * own code and the Markdown pipeline load (Root.tsx), over whatever part of the frame is there. It is
 * laid out as the lane it turns into (the top bar, the sidebar's place on a wide screen, the author
 * lines and bubbles, the composer's bar), so nothing moves when the lane replaces it; its controls are
 * drawn, not live (the head is on screen for a moment). Offline it reads the same cache the lane does.
 * Read once and painted whole (title, rows and the agent's name together): `onShown` is called once the
 * rows are painted, or at once when there are none or the read failed.
 */
export function LaneHead(props: { lane: string; onShown: () => void }) {
  const { db } = useIris();
  // Everything the head shows, read at once and painted in one go: a bar without its title or a list
  // without its rows is a wrong first screen, not a faster one.
  const [shown, setShown] = createSignal<{ title: string; rows: MessageRow[]; agent: string }>();
  // Root keys the head on the lane and passes one callback: neither changes under it.
  const { lane, onShown } = props; // eslint-disable-line solid/reactivity
  void Promise.all([
    getChannel(db, lane).then(
      (channel) => channel?.name ?? 'Conversation',
      () => 'Conversation',
    ),
    laneMessages(db, lane, HEAD_MESSAGES).catch(() => undefined),
    getSetting(db, 'gatewayStatus').then(agentName, () => agentName(undefined)),
  ]).then(([title, found, agent]) => {
    if (!found) return onShown(); // the read failed: nothing to show, the lane takes over
    setShown({ title, rows: found, agent });
    // After the frame that paints them.
    if (found.length > 0) requestAnimationFrame(() => setTimeout(onShown, 0));
    else onShown();
  });
  const text = (row: MessageRow) => (row.text.length > HEAD_CHARS ? `${row.text.slice(0, HEAD_CHARS)}…` : row.text);
  return (
    <Show when={shown()}>
      {(head) => (
        <div class="lane-head">
          <div class="lane-head-side" aria-hidden="true">
            <div class="lane-head-side-bar">Channels</div>
          </div>
          <main class="lane-head-main" aria-busy="true" aria-label="Conversation (loading)">
            <div class="lane-head-bar" aria-hidden="true">
              <span class="lane-head-button lane-head-menu">
                <Icon name="menu" />
              </span>
              <span class="lane-head-title">{head().title}</span>
              <span class="lane-head-button">
                <Icon name="search" />
              </span>
              <span class="lane-head-button">
                <Icon name="settings" />
              </span>
            </div>
            {/* A short lane starts at the top, as the lane does; a long one shows its newest at the bottom. */}
            <ol class="lane-head-list" classList={{ 'lane-head-short': head().rows.length < HEAD_MESSAGES }}>
              <For each={head().rows}>
                {(row) => (
                  <Show
                    when={row.role === 'user'}
                    fallback={
                      <li class="lane-head-msg">
                        <p class="lane-head-author">
                          <span class="lane-head-name">{authorName(row.role, head().agent)}</span>
                          <span class="lane-head-time">{formatTime(row.ts)}</span>
                        </p>
                        <p class="lane-head-text">{text(row)}</p>
                      </li>
                    }
                  >
                    <li class="lane-head-msg lane-head-user">
                      <p class="lane-head-text lane-head-bubble">{text(row)}</p>
                      <p class="lane-head-foot">
                        <span class="lane-head-time">{formatTime(row.ts)}</span>
                      </p>
                    </li>
                  </Show>
                )}
              </For>
            </ol>
            <div class="lane-head-composer" aria-hidden="true">
              <div class="lane-head-row">
                <span class="lane-head-box">Message</span>
                <span class="lane-head-send" />
              </div>
            </div>
          </main>
        </div>
      )}
    </Show>
  );
}
