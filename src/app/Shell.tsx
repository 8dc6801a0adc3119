import { useLocation } from '@solidjs/router';
import { Show, createEffect, createMemo, createSignal, on, type ParentProps } from 'solid-js';
import { live } from '../store/live';
import { ChannelNav } from './components/channels/ChannelNav';
import { useAutoThread } from './components/channels/useAutoThread';
import { Drawer } from './components/shell/Drawer';
import { laneFromPath } from './components/shell/laneRoute';
import { DESKTOP_QUERY, createMediaQuery } from './components/shell/mediaQuery';
import { routeTitle } from './components/shell/pageTitle';
import { TopBar } from './components/shell/TopBar';
import { ConnectionBanner } from './components/status/ConnectionBanner';
import { Toasts } from './components/status/Toasts';
import { iris } from './context';
import './Shell.css';

/**
 * Everything around a page once paired: channels (drawer or sidebar), top bar, banners, toasts.
 * Loaded on demand by the router's root (Root.tsx): the pairing screen never needs it.
 */
export function AppFrame(props: ParentProps) {
  const { db } = iris();
  const location = useLocation();
  const desktop = createMediaQuery(DESKTOP_QUERY);
  const [drawerOpen, setDrawerOpen] = createSignal(false);
  const laneLocation = createMemo(() => laneFromPath(location.pathname));
  const lane = () => laneLocation()?.lane;

  const laneChannel = createMemo(() => {
    const current = lane();
    return current ? live(() => db.channels.get(current), undefined) : () => undefined;
  });
  const title = () => {
    if (!lane()) return routeTitle(location.pathname);
    return laneChannel()()?.name ?? 'Conversation';
  };

  createEffect(() => {
    document.title = title() === 'Iris' ? 'Iris' : `${title()} · Iris`;
  });
  // Any navigation (a lane picked, a toast opened) closes the phone drawer.
  createEffect(on(() => location.pathname, () => setDrawerOpen(false), { defer: true }));
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
        />
        <ConnectionBanner />
        <div class="shell-body">
          {/* Under the banner, over the page: a toast never hides the connection state. */}
          <Toasts />
          <div class="shell-content">{props.children}</div>
        </div>
      </div>
    </div>
  );
}
