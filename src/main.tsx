import { render } from 'solid-js/web';
import { App } from './app/App';
import { registerServiceWorker } from './pwa/register';
import { listenForInstallPrompt } from './pwa/install';
import { createRuntime } from './runtime';

const runtime = createRuntime();

listenForInstallPrompt();
runtime.start();
render(() => <App runtime={runtime} />, document.getElementById('root')!);
registerServiceWorker();
