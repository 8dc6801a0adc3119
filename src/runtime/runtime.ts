// One window's Iris: the database, the client (connection and commands, with the store's reducer),
// the theme, and the services started from them. Built once, by main.tsx; components reach it through
// the app's Solid context (useIris), and modules below take from it only what they need, as arguments.
import { createClient, type ClientOptions, type IrisClient } from '../client';
import { loadPushBridge } from '../push/loadBridge';
import { watchDatabaseUpgrade } from '../pwa/databaseUpgrade';
import { IrisDB } from '../store/db';
import { watchPaired } from './paired';
import { writePairedHint } from './pairedHint';
import { createTheme, type WindowTheme } from './theme';

/** What a service of the runtime is built from. */
export interface RuntimeParts {
  readonly db: IrisDB;
  readonly client: IrisClient;
}

export interface IrisRuntime extends RuntimeParts {
  /** The colour theme (system, light or dark), kept in the database's settings. */
  readonly theme: WindowTheme;
  /**
   * This runtime's one instance of a service (the media puller, the page's draft writer), built from
   * the parts on first ask. The service's code stays in the chunk that asks for it, so it loads with
   * the page that needs it and not with the first screen. A service with a `stop()` (the search index)
   * is stopped by the runtime's `stop()`; a later ask builds a new one.
   */
  shared<T>(start: (parts: RuntimeParts) => T): T;
  /** Applies the theme, connects (when paired), and starts the background work (the push bridge, the paired mark). */
  start(): void;
  /** Stops the shared services that can stop, then disconnects (tests; a page just closes). */
  stop(): Promise<void>;
}

export interface RuntimeOptions extends Partial<Omit<ClientOptions, 'db'>> {
  /** Default: the app's database, `iris`. */
  db?: IrisDB;
  /** Start the push bridge once paired (default: in a browser with a service worker). */
  push?: boolean;
}

export function createRuntime(options: RuntimeOptions = {}): IrisRuntime {
  const { db = new IrisDB(), push = true, ...clientOptions } = options;
  const client = createClient({ ...clientOptions, db });
  const theme = createTheme(db);
  const parts: RuntimeParts = { db, client };
  const services = new Map<(parts: RuntimeParts) => unknown, unknown>();
  let stopWatchingPaired: (() => void) | undefined;
  let stopWatchingUpgrade: (() => void) | undefined;
  let bridgeLoaded = false;
  return {
    db,
    client,
    theme,
    shared<T>(start: (parts: RuntimeParts) => T): T {
      if (!services.has(start)) services.set(start, start(parts));
      return services.get(start) as T;
    },
    start() {
      theme.start();
      stopWatchingUpgrade = watchDatabaseUpgrade(db);
      void client.start();
      stopWatchingPaired = watchPaired(db, (paired) => {
        writePairedHint(paired);
        if (paired && push && !bridgeLoaded) {
          bridgeLoaded = true;
          loadPushBridge(parts);
        }
      });
    },
    async stop() {
      const running = [...services.values()];
      services.clear();
      for (const service of running) if (isStoppable(service)) service.stop();
      stopWatchingPaired?.();
      stopWatchingPaired = undefined;
      stopWatchingUpgrade?.();
      stopWatchingUpgrade = undefined;
      await client.stop();
    },
  };
}

function isStoppable(service: unknown): service is { stop(): void } {
  return typeof service === 'object' && service !== null && typeof (service as { stop?: unknown }).stop === 'function';
}
