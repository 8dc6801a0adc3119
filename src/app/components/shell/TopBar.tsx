import { useLocation, useNavigate } from '@solidjs/router';
import { Show, createMemo } from 'solid-js';
import { laneHref } from '../channels/channelTree';
import type { ChannelRow } from '../../../store/schema';
import { Icon } from './Icon';
import { Menu } from './Menu';
import { laneFromPath } from './laneRoute';
import { historySettled } from './backCloses';
import { goBackTo } from './historyTrail';
import './TopBar.css';

interface TopBarProps {
  title: string;
  /** A text icon (emoji) shown before the title; rendered as text. */
  icon?: string;
  /** Phones only: opens the channel drawer. */
  onMenu?: () => void;
  menuExpanded?: boolean;
  /** Unread messages in the other lanes: shown on the drawer button. */
  menuUnread?: number;
  menuRef?: (el: HTMLButtonElement) => void;
  /** A way back where the page has one: a thread to its channel, Search and Settings on phones. Replaces the drawer button. */
  back?: { label: string; href: string };
  /** A second line under the title: a thread's parent channel. */
  subtitle?: string;
  /**
   * Phones, on a channel: its threads, each with its unread count. The drawer that lists them is
   * closed, and nothing in the channel's own conversation says a thread was started in it.
   */
  threads?: { channel: string; list: { thread: ChannelRow; unread: number }[] };
}

function threadLabel(entry: { thread: ChannelRow; unread: number }): string {
  return entry.unread > 0 ? `${entry.thread.name} (${entry.unread.toLocaleString('en-US')} unread)` : entry.thread.name;
}

/** The bar above every page: the drawer button (phones) or a way back, the page or lane title, Search and Settings. */
export function TopBar(props: TopBarProps) {
  const navigate = useNavigate();
  const location = useLocation();
  // Search offers "this chat" for the lane it was opened from.
  const searchPath = () => {
    const lane = laneFromPath(location.pathname)?.lane;
    return lane ? `/search?lane=${encodeURIComponent(lane)}` : '/search';
  };
  return (
    <header class="topbar">
      <Show when={props.back}>
        {(back) => (
          <button
            type="button"
            class="icon-button"
            aria-label={back().label}
            title={back().label}
            onClick={() => {
              const href = back().href;
              // After a menu this tap closed has taken its history entry away.
              void historySettled().then(() => goBackTo(href, navigate));
            }}
          >
            <Icon name="back" />
          </button>
        )}
      </Show>
      <Show when={props.onMenu && !props.back}>
        <button
          ref={(el) => props.menuRef?.(el)}
          type="button"
          class="icon-button"
          aria-label={props.menuUnread ? `Channels, ${props.menuUnread.toLocaleString('en-US')} unread` : 'Channels'}
          aria-haspopup="dialog"
          aria-expanded={props.menuExpanded ?? false}
          onClick={() => props.onMenu?.()}
        >
          <Icon name="menu" />
          <Show when={props.menuUnread}>
            {(count) => (
              <span class="unread-badge topbar-unread" aria-hidden="true">
                {count() > 99 ? '99+' : count()}
              </span>
            )}
          </Show>
        </button>
      </Show>
      <div class="topbar-heading">
        <h1 class="topbar-title">
          <Show when={props.icon}>
            <span class="topbar-icon" aria-hidden="true">
              {props.icon}
            </span>
          </Show>
          <span class="topbar-title-text" dir="auto">
            {props.title}
          </span>
        </h1>
        <Show when={props.subtitle}>
          <p class="topbar-subtitle">{props.subtitle}</p>
        </Show>
      </div>
      <div class="topbar-actions">
        <Show when={props.threads?.list.length ? props.threads : undefined}>
          {(threads) => {
            const someUnread = createMemo(() => threads().list.some((t) => t.unread > 0));
            return (
              <Menu
                label={`Threads in ${threads().channel}`}
                triggerLabel={`Threads in ${threads().channel}, ${threads().list.length}${
                  someUnread() ? ', new messages' : ''
                }`}
                triggerClass="icon-button topbar-threads"
                width={280}
                triggerContent={
                  <>
                    <Icon name="thread" />
                    <span class="topbar-threads-count" aria-hidden="true">
                      {threads().list.length}
                    </span>
                    <Show when={someUnread()}>
                      <span class="topbar-threads-new" aria-hidden="true" />
                    </Show>
                  </>
                }
                items={threads().list.map((entry) => ({
                  label: threadLabel(entry),
                  icon: <Icon name="thread" />,
                  onSelect: () => navigate(laneHref(entry.thread)),
                }))}
              />
            );
          }}
        </Show>
        <button type="button" class="icon-button" aria-label="Search" onClick={() => navigate(searchPath())}>
          <Icon name="search" />
        </button>
        <button type="button" class="icon-button" aria-label="Settings" onClick={() => navigate('/settings')}>
          <Icon name="settings" />
        </button>
      </div>
    </header>
  );
}
