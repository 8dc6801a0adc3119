// First: paints a lane opened at start before anything else here is evaluated (boot.ts).
import { startHead } from './app/boot';
import { render } from 'solid-js/web';
import { App } from './app/App';
import { registerServiceWorker } from './pwa/register';
import { listenForInstallPrompt } from './pwa/install';
import { createRuntime } from './runtime';

const runtime = createRuntime();

listenForInstallPrompt();
runtime.start();
render(() => <App runtime={runtime} head={startHead} />, document.getElementById('root')!);
registerServiceWorker();
