import { lazyPage } from './lazy/lazyPage';

/** The lane page, loaded on demand: App.tsx routes to it; Root.tsx fetches it beside the app frame when a lane is opened at start. */
export const LanePage = lazyPage(() => import('./pages/LanePage').then((m) => m.default));
