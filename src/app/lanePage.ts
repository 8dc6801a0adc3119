import { lazy } from 'solid-js';

/** The lane page, loaded on demand: App.tsx routes to it; Root.tsx fetches it beside the app frame when a lane is opened at start. */
export const LanePage = lazy(() => import('./pages/LanePage'));
