import { useLocation } from '@solidjs/router';
import { Show, createSignal, lazy, type ParentProps } from 'solid-js';
import { laneFromPath } from './components/shell/laneRoute';
import { LaneHead } from './components/messages/LaneHead';
import { LaneShownContext } from './components/messages/laneShown';
import { LanePage } from './lanePage';
import './styles/theme.css';

// The frame around paired pages (channels, top bar, banners) loads on demand, with its CSS: the
// pairing screen, the first a person sees, does without it.
const AppFrame = lazy(() => import('./Shell').then((m) => ({ default: m.AppFrame })));

/** The router's root layout. Pairing gets the whole screen; every other route gets the app frame. */
export function Root(props: ParentProps) {
  const location = useLocation();
  const bare = () => location.pathname === '/pair' || location.pathname.startsWith('/pair/');
  const lane = () => laneFromPath(location.pathname)?.lane;
  // The head stays over the lane until the lane's message list has placed its rows (or has none to
  // place): leaving when the lane page merely mounted showed a blank lane between the two. Once a lane
  // has been shown, the head is not shown again.
  const [laneShown, setLaneShown] = createSignal(false);
  // The frame's code (and the lane's, App.tsx) is evaluated on the main thread as it arrives: a lane
  // opened at start waits until its head is painted, so that paint does not queue behind it.
  const [framed, setFramed] = createSignal(!lane());
  return (
    <Show when={!bare()} fallback={props.children}>
      {/* A lane opened at start shows its newest messages as plain text until the lane page is on screen. */}
      <Show when={!laneShown() && lane()} keyed>
        {(id) => (
          <LaneHead
            lane={id}
            onShown={() => {
              setFramed(true);
              // Fetched beside the frame's chunk, not once the frame has run and renders it.
              void LanePage.preload();
            }}
          />
        )}
      </Show>
      <Show when={framed()}>
        <LaneShownContext.Provider value={() => setLaneShown(true)}>
          <AppFrame>{props.children}</AppFrame>
        </LaneShownContext.Provider>
      </Show>
    </Show>
  );
}
