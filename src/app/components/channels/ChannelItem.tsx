import { For, Show, createUniqueId } from 'solid-js';
import type { ChannelRow } from '../../../store/schema';
import { Icon } from '../shell/Icon';
import { Menu, type MenuItem } from '../shell/Menu';
import { laneHref } from './channelTree';
import { safeColor, textOn } from './channelLook';
import { live } from '../../../store/live';
import { useIris } from '../../../runtime';
import { laneSummary, channelPreview } from './laneSummary';
import { textDirection } from '../../../lib/textDirection';
import type { ChannelAction } from './ChannelDialogs';

interface ChannelItemProps {
  channel: ChannelRow;
  isDefault: boolean;
  threads: ChannelRow[];
  currentLane: string | undefined;
  onAction: (action: ChannelAction) => void;
  onFavorite: (channel: ChannelRow, favorite: boolean) => void;
  onSetDefault: (channel: ChannelRow) => void;
  onNavigate: () => void;
}

function lookStyle(color: string | undefined) {
  const safe = safeColor(color);
  return safe ? { 'background-color': safe, color: textOn(safe) } : undefined;
}

/** One channel (or thread) row: a link to its lane and its actions menu. Names are text nodes only. */
function ChannelRowView(props: {
  channel: ChannelRow;
  isDefault: boolean;
  current: boolean;
  nested: boolean;
  menuItems: MenuItem[];
  onNavigate: () => void;
}) {
  const { db } = useIris();
  const previewId = createUniqueId();
  // One live query per row: a message streaming in one lane re-reads only that lane's figures.
  // eslint-disable-next-line solid/reactivity -- one row per channel (For by row): its chat_id is fixed for the row's life
  const summary = live(() => laneSummary(db, props.channel.chat_id), undefined);
  const unread = () => summary()?.unread ?? 0;
  const stateWords = () =>
    [
      props.channel.favorite && 'favorite',
      props.isDefault && 'default',
      props.channel.archived && 'archived',
      unread() > 0 && `${unread()} unread`,
    ]
      .filter(Boolean)
      .map((word) => `, ${word}`)
      .join('');
  // The link holds only the name; icon, marks, preview and count sit beside it (hidden from
  // assistive tech, which hears them in the link's label) and a stretched ::after makes the whole
  // row clickable. So the visible name is always the start of the accessible name.
  return (
    <div
      class="channel-row"
      classList={{ current: props.current, nested: props.nested, archived: props.channel.archived }}
    >
      <span
        class="channel-icon"
        classList={{ colored: !!safeColor(props.channel.color), thread: props.nested && !props.channel.icon }}
        style={lookStyle(props.channel.color)}
        aria-hidden="true"
      >
        <Show when={!props.channel.icon} fallback={props.channel.icon}>
          <Show when={props.nested || props.isDefault} fallback="#">
            <Icon name={props.nested ? 'thread' : 'home'} />
          </Show>
        </Show>
      </span>
      <span class="channel-text">
        <span class="channel-name-line">
          <a
            class="channel-link"
            href={`#${laneHref(props.channel)}`}
            aria-current={props.current ? 'page' : undefined}
            // The name first (what a voice user says), then its state: "Trips, favorite, 2 unread".
            aria-label={`${props.channel.name}${stateWords()}`}
            aria-describedby={summary()?.preview ? previewId : undefined}
            onClick={() => props.onNavigate()}
          >
            <span class="channel-name" dir="auto">
              {props.channel.name}
            </span>
          </a>
          <Show when={props.channel.favorite}>
            <span class="channel-mark" title="Favorite" aria-hidden="true">
              <Icon name="star" />
            </span>
          </Show>
          <Show when={props.isDefault}>
            <span class="channel-tag" aria-hidden="true">
              default
            </span>
          </Show>
          <Show when={props.channel.archived}>
            <span class="channel-tag" aria-hidden="true">
              archived
            </span>
          </Show>
        </span>
        <Show when={channelPreview(summary())}>
          {(preview) => (
            // In its text's direction, so a Hebrew line is cut at its end (the left), "You:" whole at its start.
            <span class="channel-preview" id={previewId} aria-hidden="true" dir={textDirection(preview().text)}>
              <Show when={preview().who}>
                {(who) => (
                  <>
                    <span dir="ltr">{who()}</span>{' '}
                  </>
                )}
              </Show>
              {preview().text}
            </span>
          )}
        </Show>
      </span>
      <Show when={unread() > 0}>
        <span class="unread-badge" aria-hidden="true">
          {unread() > 99 ? '99+' : unread()}
        </span>
      </Show>
      <Menu
        label={`Actions for ${props.channel.name}`}
        items={props.menuItems}
        triggerClass="icon-button channel-menu-button"
      />
    </div>
  );
}

/** A channel with its threads nested below it. */
export function ChannelItem(props: ChannelItemProps) {
  const itemsFor = (channel: ChannelRow, isDefault: boolean): MenuItem[] => {
    const items: MenuItem[] = [];
    const isThread = channel.kind === 'thread';
    if (!isThread && !channel.archived)
      items.push({ label: 'New thread', onSelect: () => props.onAction({ kind: 'new-thread', channel }) });
    items.push({ label: 'Rename', onSelect: () => props.onAction({ kind: 'rename', channel }) });
    items.push(
      channel.favorite
        ? { label: 'Remove from favorites', onSelect: () => props.onFavorite(channel, false) }
        : { label: 'Add to favorites', onSelect: () => props.onFavorite(channel, true) },
    );
    items.push({ label: 'Icon and colour', onSelect: () => props.onAction({ kind: 'look', channel }) });
    if (!isThread && !isDefault && !channel.archived)
      items.push({ label: 'Set as default', onSelect: () => props.onSetDefault(channel) });
    if (!isDefault && !channel.archived)
      items.push({ label: 'Archive', danger: true, onSelect: () => props.onAction({ kind: 'archive', channel }) });
    return items;
  };

  return (
    <li class="channel-item">
      <ChannelRowView
        channel={props.channel}
        isDefault={props.isDefault}
        current={props.currentLane === props.channel.chat_id}
        nested={false}
        menuItems={itemsFor(props.channel, props.isDefault)}
        onNavigate={props.onNavigate}
      />
      <Show when={props.threads.length > 0}>
        <ul class="thread-list" aria-label={`Threads in ${props.channel.name}`}>
          <For each={props.threads.map((t) => t.chat_id)}>
            {(threadId) => (
              <Show when={props.threads.find((t) => t.chat_id === threadId)}>
                {(thread) => (
                  <li>
                    <ChannelRowView
                      channel={thread()}
                      isDefault={false}
                      current={props.currentLane === thread().chat_id}
                      nested={true}
                      menuItems={itemsFor(thread(), false)}
                      onNavigate={props.onNavigate}
                    />
                  </li>
                )}
              </Show>
            )}
          </For>
        </ul>
      </Show>
    </li>
  );
}
