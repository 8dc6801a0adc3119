import { HashRouter, Route } from '@solidjs/router';
import { lazy } from 'solid-js';
import { Shell } from './Shell';
import { PairPage } from './pages/PairPage';
import { HomePage } from './pages/HomePage';
import { UpdatePrompt } from './components/pwa/UpdatePrompt';

// Pages other than pairing and home load on demand, keeping the first screen's JS small.
const LanePage = lazy(() => import('./pages/LanePage'));
const SearchPage = lazy(() => import('./pages/SearchPage'));
const SettingsPage = lazy(() => import('./pages/SettingsPage'));
const SharePage = lazy(() => import('./pages/SharePage'));

export function App() {
  return (
    <>
      <HashRouter root={Shell}>
        <Route path="/pair" component={PairPage} />
        <Route path="/c/:chatId" component={LanePage} />
        <Route path="/c/:chatId/t/:threadId" component={LanePage} />
        <Route path="/search" component={SearchPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route path="/share" component={SharePage} />
        <Route path="*" component={HomePage} />
      </HashRouter>
      <UpdatePrompt />
    </>
  );
}
