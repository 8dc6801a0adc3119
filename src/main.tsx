import { render } from 'solid-js/web';
import { App } from './app/App';
import { registerServiceWorker } from './pwa/register';
import { listenForInstallPrompt } from './pwa/install';
import { startPushBridge } from './push/bridge';

listenForInstallPrompt();
render(() => <App />, document.getElementById('root')!);
registerServiceWorker();
startPushBridge();
