import { useLocation } from '@solidjs/router';
import { Show, createEffect, createMemo, createSignal, on, type ParentProps } from 'solid-js';
import { live } from '../store/live';
import { getChannel, threadsOf } from '../store/models/channels';
import { totalUnread, unreadCount } from '../store/models/messages';
import { ChannelNav } from './components/channels/ChannelNav';
import { useAutoThread } from './components/channels/useAutoThread';
import { useOverlayEntryOnLeave } from './components/shell/backCloses';
import { Drawer } from './components/shell/Drawer';
import { laneFromPath } from './components/shell/laneRoute';
import { DESKTOP_QUERY, createMediaQuery } from './components/shell/mediaQuery';
import { routeTitle } from './components/shell/pageTitle';
import { TopBar } from './components/shell/TopBar';
import { recordEntry } from './components/shell/historyTrail';
import { ConnectionBanner } from './components/status/ConnectionBanner';
import { Toasts } from './components/status/Toasts';
import { useIris } from '../runtime';
import './Shell.css';

/** Pages that are a step aside from the conversation: on phones their top bar leads back to it. */
const PAGES_WITH_BACK = new Set(['/search', '/settings', '/share']);

/**
 * Everything around a page once paired: channels (drawer or sidebar), top bar, banners, toasts.
 * Loaded on demand by the router's root (Root.tsx): the pairing screen never needs it.
 */
export function AppFrame(props: ParentProps) {
  const { db } = useIris();
  const location = useLocation();
  useOverlayEntryOnLeave();
  const desktop = createMediaQuery(DESKTOP_QUERY);
  const [drawerOpen, setDrawerOpen] = createSignal(false);
  const laneLocation = createMemo(() => laneFromPath(location.pathname));
  const lane = () => laneLocation()?.lane;

  // null once read and not found; undefined while the read is on its way (the title waits for it
  // rather than saying "Conversation" for a moment).
  const laneChannel = createMemo(() => {
    const current = lane();
    return current ? live(async () => (await getChannel(db, current)) ?? null) : () => null;
  });
  // A thread names its channel and leads back to it.
  const parentChannel = createMemo(() => {
    const at = laneLocation();
    return at?.threadId ? live(() => getChannel(db, at.chatId), undefined) : () => undefined;
  });
  // Phones: what is new in the other lanes, on the Channels button (the drawer that lists them is closed).
  const unreadElsewhere = createMemo(() => {
    const current = lane();
    return desktop() ? () => 0 : live(() => totalUnread(db, current), 0);
  });
  // Phones, on a channel (not a thread): its threads, which only the closed drawer lists otherwise.
  const channelThreads = createMemo(() => {
    const at = laneLocation();
    if (desktop() || !at || at.threadId) return () => undefined;
    return live(async () => {
      const threads = await threadsOf(db, at.chatId);
      return Promise.all(threads.map(async (thread) => ({ thread, unread: await unreadCount(db, thread.chat_id) })));
    }, undefined);
  });
  const threads = () => {
    const list = channelThreads()();
    const channel = laneChannel()();
    return list && channel ? { channel: channel.name, list } : undefined;
  };
  // Where each history entry is, so the top bar's back arrow can be the browser's Back. After the
  // router has written the entry (its location changes first).
  createEffect(() => {
    const path = location.pathname;
    setTimeout(() => recordEntry(path));
  });
  // Search and Settings lead back (on phones, where no sidebar does) to the lane last open.
  let lastLane: string | undefined;
  createEffect(() => {
    if (lane()) lastLane = location.pathname;
  });
  const back = () => {
    const at = laneLocation();
    if (at?.threadId) {
      const name = parentChannel()()?.name;
      return { label: name ? `Back to ${name}` : 'Back to the channel', href: `/c/${encodeURIComponent(at.chatId)}` };
    }
    if (!at && !desktop() && PAGES_WITH_BACK.has(location.pathname.replace(/\/$/, '')))
      return { label: 'Back', href: lastLane ?? '/' };
    return undefined;
  };
  const subtitle = () => {
    const name = laneLocation()?.threadId ? parentChannel()()?.name : undefined;
    return name ? `Thread in ${name}` : undefined;
  };
  const title = () => {
    if (!lane()) return routeTitle(location.pathname);
    const channel = laneChannel()();
    return channel === undefined ? '' : (channel?.name ?? 'Conversation');
  };

  createEffect(() => {
    document.title = title() === 'Iris' || title() === '' ? 'Iris' : `${title()} · Iris`;
  });
  // Any navigation (a lane picked, a toast opened) closes the phone drawer.
  createEffect(
    on(
      () => location.pathname,
      () => setDrawerOpen(false),
      { defer: true },
    ),
  );
  createEffect(() => {
    if (desktop()) setDrawerOpen(false);
  });
  useAutoThread(laneLocation);

  const nav = (onClose?: () => void) => (
    <ChannelNav currentLane={lane()} onNavigate={() => setDrawerOpen(false)} onClose={onClose} />
  );

  return (
    <div class="shell" classList={{ desktop: desktop() }}>
      <Show
        when={desktop()}
        fallback={
          <Drawer open={drawerOpen()} onClose={() => setDrawerOpen(false)} label="Channels">
            <Show when={drawerOpen()}>{nav(() => setDrawerOpen(false))}</Show>
          </Drawer>
        }
      >
        <aside class="shell-sidebar">{nav()}</aside>
      </Show>
      <div class="shell-main">
        <TopBar
          title={title()}
          icon={lane() ? laneChannel()()?.icon : undefined}
          onMenu={desktop() ? undefined : () => setDrawerOpen(true)}
          menuExpanded={drawerOpen()}
          menuUnread={unreadElsewhere()()}
          back={back()}
          subtitle={subtitle()}
          threads={threads()}
        />
        <ConnectionBanner />
        {/* Over a conversation, toasts cover its oldest lines for a moment; over Settings or Search, whose
            top is what a person came for, they take their own room above the page instead. */}
        <div class="shell-body" classList={{ 'toasts-in-flow': !lane() }}>
          {/* Under the banner, over the page: a toast never hides the connection state. */}
          <Toasts />
          <div class="shell-content">{props.children}</div>
        </div>
      </div>
    </div>
  );
}
