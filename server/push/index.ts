/** Server-side Web Push: see routes.ts for what the serving process mounts and the gateway calls. */
export { createPushRoutes, type PushRoutes, type PushRoutesOptions } from './routes';
