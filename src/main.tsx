import { render } from 'solid-js/web';
import { App } from './app/App';
import { lazyReducer } from './client/lazyReducer';
import { registerServiceWorker } from './pwa/register';
import { listenForInstallPrompt } from './pwa/install';
import { createRuntime } from './runtime';

// The store's reducer with toasts for stray gateway errors; it loads with the first frame (see
// lazyReducer), not on an unpaired first screen.
const reducer = lazyReducer(() => import('./app/components/status/gatewayErrorToasts').then((m) => m.reducerWithErrorToasts()));
const runtime = createRuntime({ reducer });

listenForInstallPrompt();
runtime.start();
render(() => <App runtime={runtime} />, document.getElementById('root')!);
registerServiceWorker();
