import { render } from 'solid-js/web';
import { App } from './app/App';
import { registerServiceWorker } from './pwa/register';
import { listenForInstallPrompt } from './pwa/install';
import { startPushBridgeWhenPaired } from './push/startWhenPaired';

listenForInstallPrompt();
render(() => <App />, document.getElementById('root')!);
registerServiceWorker();
startPushBridgeWhenPaired();
