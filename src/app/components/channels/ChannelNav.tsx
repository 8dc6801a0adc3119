import { useNavigate } from '@solidjs/router';
import { For, Show, createMemo, createSignal, onMount } from 'solid-js';
import { live } from '../../../store/live';
import { channelsInOrder } from '../../../store/models/channels';
import { useIris } from '../../../runtime';
import { Icon } from '../shell/Icon';
import { showErrorToast } from '../status/toastWrites';
import type { ChannelAction, ChannelCommands } from './ChannelDialogs';
import { ChannelItem } from './ChannelItem';
import { archivedCount, channelTree, laneHref } from './channelTree';
import { loadWhenIdle } from '../../loadWhenIdle';
import { lazyPart } from '../../lazy/lazyPart';
import './ChannelNav.css';

// The dialogs (new channel, rename, look, archive) load when one is first asked for, then stay.
// They are fetched once the page is idle (loadWhenIdle.ts), so a first visit has them offline too.
// One whose code cannot be fetched is closed with a toast, and loads again at the next action.
const loadDialogs = () => import('./ChannelDialogs');
const ChannelDialogs = lazyPart(() => loadDialogs().then((m) => m.ChannelDialogs), {
  title: 'Could not open that',
  onUnavailable: (shown) => shown.onClose(),
  askedAgain: (shown) => shown.action,
});

interface ChannelNavProps {
  currentLane: string | undefined;
  /** Called after the user picks a lane (the phone drawer closes). */
  onNavigate: () => void;
  /** Shown on phones: a button that closes the drawer. */
  onClose?: () => void;
}

/** The channel list: a `navigation` named "Channels", with its actions. Reads the DB only. */
export function ChannelNav(props: ChannelNavProps) {
  const { db, client } = useIris();
  const navigate = useNavigate();
  const [showArchived, setShowArchived] = createSignal(false);
  const [action, setAction] = createSignal<ChannelAction>();
  const asked = createMemo<boolean>((was) => was || action() !== undefined, false);
  onMount(() => loadWhenIdle([loadDialogs]));

  // undefined until the first read lands: a paired device's list is loading then, not empty.
  const stored = live(() => channelsInOrder(db));
  const channels = () => stored() ?? [];
  const tree = createMemo(() => channelTree(channels(), showArchived()));
  // Rows are keyed by chat_id (strings compare by value), so a directory update re-renders only what
  // changed and an open menu or focused row survives it.
  const byId = createMemo(() => new Map(tree().map((node) => [node.channel.chat_id, node])));
  const ids = createMemo(() => tree().map((node) => node.channel.chat_id));

  const commands: ChannelCommands = {
    async create(name, parent) {
      const created = await client.createChannel(name, parent ? 'thread' : 'channel', parent?.chat_id);
      navigate(laneHref(created));
      props.onNavigate();
    },
    rename: (channel, name) => client.renameChannel(channel.chat_id, name).then(() => undefined),
    setLook: (channel, icon, color) => client.setIcon(channel.chat_id, icon, color).then(() => undefined),
    async archive(channel) {
      await client.archiveChannel(channel.chat_id);
      // The lane on screen (or one of its threads) just left the list: go home rather than stay hidden.
      const current = props.currentLane ? channels().find((c) => c.chat_id === props.currentLane) : undefined;
      if (current && (current.chat_id === channel.chat_id || current.parent_chat_id === channel.chat_id)) navigate('/');
    },
  };

  const withErrorToast = (what: string, command: () => Promise<unknown>) => {
    command().catch((error: unknown) => showErrorToast(db, what, error));
  };

  return (
    <nav class="channel-nav" aria-label="Channels">
      <div class="channel-nav-header">
        <Show when={props.onClose}>
          <button type="button" class="icon-button" aria-label="Close" onClick={() => props.onClose?.()}>
            <Icon name="close" />
          </button>
        </Show>
        <h2 class="channel-nav-title">Channels</h2>
        <button
          type="button"
          class="icon-button"
          aria-label="New channel"
          onClick={() => setAction({ kind: 'new-channel' })}
        >
          <Icon name="plus" />
        </button>
      </div>
      <Show
        when={tree().length > 0}
        fallback={
          <Show when={stored()} fallback={<div class="channel-list" aria-busy="true" />}>
            <p class="channel-empty">No channels yet. Pair with a gateway, or create one with “New channel”.</p>
          </Show>
        }
      >
        <ul class="channel-list">
          <For each={ids()}>
            {(id) => (
              <Show when={byId().get(id)}>
                {(node) => (
                  <ChannelItem
                    channel={node().channel}
                    isDefault={node().isDefault}
                    threads={node().threads}
                    currentLane={props.currentLane}
                    onAction={setAction}
                    onFavorite={(channel, favorite) =>
                      withErrorToast(favorite ? 'Could not add to favorites' : 'Could not remove from favorites', () =>
                        client.favorite(channel.chat_id, favorite),
                      )
                    }
                    onSetDefault={(channel) =>
                      withErrorToast('Could not set the default channel', () => client.setDefault(channel.chat_id))
                    }
                    onNavigate={props.onNavigate}
                  />
                )}
              </Show>
            )}
          </For>
        </ul>
      </Show>
      <Show when={archivedCount(channels()) > 0}>
        <label class="archived-toggle">
          <input type="checkbox" checked={showArchived()} onChange={(e) => setShowArchived(e.currentTarget.checked)} />
          <span>Show archived ({archivedCount(channels())})</span>
        </label>
      </Show>
      <Show when={asked()}>
        <ChannelDialogs action={action()} commands={commands} onClose={() => setAction(undefined)} />
      </Show>
    </nav>
  );
}
