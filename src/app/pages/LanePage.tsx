import { useParams, useSearchParams } from '@solidjs/router';
import { Show, createSignal, onCleanup, onMount } from 'solid-js';
import { live } from '../../store/live';
import { getChannel } from '../../store/models/channels';
import { Composer } from '../components/composer/Composer';
import { replyEnded } from '../components/composer/composerMode';
import { laneNewest, laneRow } from '../components/messages/laneWindow';
import { MessageList } from '../components/messages/MessageList';
import { PickerHost } from '../components/pickers/PickerHost';
import { ThinkingIndicator } from '../components/messages/ThinkingIndicator';
import { useAgentName } from '../components/messages/useAgentName';
import { DEFAULT_AGENT_NAME } from '../components/status/agentInfo';
import { useIris } from '../../runtime';
import './LanePage.css';

function decodeParam(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The browser is still at the address that asked for message `id`. A Back moves the browser at once but
 * the router a task later (on hashchange): tidying the address in between would replace the entry gone
 * back to (the search) with this lane's, and leave the person here.
 */
function addressAsksFor(id: string | undefined): boolean {
  const query = window.location.hash.split('?')[1] ?? '';
  return id !== undefined && new URLSearchParams(query).get('m') === id;
}

/** `/c/:chatId` and `/c/:chatId/t/:threadId`: one conversation lane (thread_id ?? chat_id). */
export default function LanePage() {
  const params = useParams<{ chatId: string; threadId?: string }>();
  const [search, setSearch] = useSearchParams<{ m?: string }>();
  const lane = () => decodeParam(params.threadId) ?? decodeParam(params.chatId);
  const focusId = () => (typeof search.m === 'string' && search.m ? search.m : undefined);
  return (
    <Show when={lane()} keyed fallback={<p class="lane-missing">This conversation address is not valid.</p>}>
      {(id) => (
        <LaneView
          lane={id}
          focusId={focusId()}
          // The message asked for is a one-time place to open at: once there, the address is the lane's,
          // so a reload (or the app restored later) opens at the newest message, not at that old one.
          onFocusDone={() => addressAsksFor(focusId()) && setSearch({ m: undefined }, { replace: true })}
        />
      )}
    </Show>
  );
}

function LaneView(props: { lane: string; focusId?: string; onFocusDone: () => void }) {
  const { db, client } = useIris();
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const channel = live(() => getChannel(db, props.lane));
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const laneState = laneRow(db, props.lane);
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const newest = laneNewest(db, props.lane);
  // Told by the list, from what it renders (a second query of the same rows lands a frame apart).
  const [turnShown, setTurnShown] = createSignal(false);
  const agent = useAgentName();
  onMount(() => client.setActiveLane(props.lane));
  // Only if no other lane took over meanwhile (moving between lanes mounts the next one first).
  onCleanup(() => client.activeLane() === props.lane && client.setActiveLane(undefined));
  return (
    <main class="lane-page" aria-labelledby="lane-heading">
      <h2 id="lane-heading" class="visually-hidden">
        {channel()?.name ?? 'Conversation'}
      </h2>
      <MessageList
        lane={props.lane}
        focusId={props.focusId}
        onFocusDone={() => props.onFocusDone()}
        onTurnShown={setTurnShown}
      />
      <ThinkingIndicator
        lane={laneState()}
        agent={agent() ?? DEFAULT_AGENT_NAME}
        replyEnded={replyEnded(newest())}
        turnShown={turnShown()}
      />
      <PickerHost lane={props.lane} />
      <Composer lane={props.lane} />
    </main>
  );
}
