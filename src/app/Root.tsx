import { useLocation } from '@solidjs/router';
import { Show, createEffect, createSignal, type ParentProps } from 'solid-js';
import { laneFromPath } from './components/shell/laneRoute';
import type { LaneHeadView } from './components/messages/LaneHead';
import { LaneShownContext } from './components/messages/laneShown';
import { LanePage } from './lanePage';
import { lazyPage } from './lazy/lazyPage';
import { useIris } from '../runtime';
import './styles/theme.css';

// The frame around paired pages (channels, top bar, banners) loads on demand, with its CSS: the
// pairing screen, the first a person sees, does without it.
const AppFrame = lazyPage(() => import('./Shell').then((m) => m.AppFrame));

/**
 * The router's root layout. Pairing gets the whole screen; every other route gets the app frame. `head`:
 * the lane head painted at start (boot.ts), kept over the frame until the lane's list has placed its rows
 * (the frame's channel list and title and the lane's rows all arrive under it), or until the person is
 * elsewhere than that lane.
 */
export function Root(props: ParentProps<{ head?: LaneHeadView }>) {
  const location = useLocation();
  const bare = () => location.pathname === '/pair' || location.pathname.startsWith('/pair/');
  const { client } = useIris();
  // The commands' code comes beside the frame's: every paired page sends or asks soon (client/lazyCommands.ts).
  createEffect(() => {
    if (!bare()) void client.preloadCommands();
  });
  const [laneShown, setLaneShown] = createSignal(false);
  // eslint-disable-next-line solid/reactivity -- painted once at start, never replaced
  const head = props.head;
  if (head) {
    // The lane's code is fetched beside the frame's, not once the frame has run and renders it.
    void LanePage.preload();
    createEffect(() => {
      const lane = laneFromPath(location.pathname)?.lane;
      // The home ("/") opens the head's lane (HomePage) a moment after start.
      const away = location.pathname !== '/' && lane !== head.lane;
      if (laneShown() || away) head.remove();
    });
  }
  return (
    <Show when={!bare()} fallback={props.children}>
      <LaneShownContext.Provider value={() => setLaneShown(true)}>
        <AppFrame>{props.children}</AppFrame>
      </LaneShownContext.Provider>
    </Show>
  );
}
