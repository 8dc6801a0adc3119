import { HashRouter, Route } from '@solidjs/router';
import { IrisContext, type IrisRuntime } from '../runtime';
import { lazyPage } from './lazy/lazyPage';
import { LanePage } from './lanePage';
import { Root } from './Root';
import type { LaneHeadView } from './components/messages/LaneHead';
import { HomePage } from './pages/HomePage';
import { UpdatePrompt } from './components/pwa/UpdatePrompt';

// Every page but home (which only redirects) loads on demand, keeping the first screen's JS small.
// The pairing page is preloaded by index.html (vite.config.ts), so it arrives with the entry.
// One whose code cannot be fetched says so in its place (lazy/lazyPage.tsx).
const PairPage = lazyPage(() => import('./pages/PairPage').then((m) => m.PairPage));
const SearchPage = lazyPage(() => import('./pages/SearchPage').then((m) => m.default));
const SettingsPage = lazyPage(() => import('./pages/SettingsPage').then((m) => m.default));
const SharePage = lazyPage(() => import('./pages/SharePage').then((m) => m.default));

/** `head`: the lane head boot.ts painted at start, if any (Root takes it away once the lane is shown). */
export function App(props: { runtime: IrisRuntime; head?: LaneHeadView }) {
  return (
    // eslint-disable-next-line solid/reactivity -- the runtime is built once in main.tsx and never replaced
    <IrisContext.Provider value={props.runtime}>
      <HashRouter root={(root) => <Root head={props.head}>{root.children}</Root>}>
        <Route path="/pair" component={PairPage} />
        <Route path="/c/:chatId" component={LanePage} />
        <Route path="/c/:chatId/t/:threadId" component={LanePage} />
        <Route path="/search" component={SearchPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route path="/share" component={SharePage} />
        <Route path="*" component={HomePage} />
      </HashRouter>
      <UpdatePrompt />
    </IrisContext.Provider>
  );
}
