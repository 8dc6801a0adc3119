// The app-facing client: connection state as signals, and the commands. In a browser with several
// tabs open, one tab (the Web Lock holder) runs the gateway session; the others forward to it.
import { createSignal, type Accessor } from 'solid-js';
import type { IrisDB } from '../store/db';
import { getDeviceId, getSetting, setSetting } from '../store/models/settings';
import type { FlushScheduler } from '../net/framePipeline';
import type { WebSocketConstructor } from '../net/connection';
import type { ConnectionState } from '../net/phases';
import type { WakeSource } from '../net/wake';
import { defaultDeviceName } from '../net/deviceName';
import { electLeader, TabBus, type BusMessage } from '../net/leader';
import type { CatchUp, GatewayConfig, GatewaySession, Reducer } from '../net/session';
import type { Timers } from '../net/timers';
import { createArrivingText } from './arrivingText';
import { lazyCommands, type LazyCommands } from './lazyCommands';
import { lazyReducer } from './lazyReducer';
import { localTransport, remoteTransport, serveTransport, type Transport } from './transport';

export type { ConnectionState } from '../net/phases';
export type { CatchUp } from '../net/session';

/** Settings of this device rather than of the gateway it is paired with: forgetting the gateway keeps them. */
const DEVICE_SETTINGS = ['theme', 'deviceName'] as const;
/** A failed newest page of the lane on screen is tried again after 2, 4, 8, 16 and 32 s. */
const NEWEST_RETRIES = 5;
const NEWEST_RETRY_MS = 2000;

export interface IrisClient extends LazyCommands {
  readonly state: Accessor<ConnectionState>;
  /** Why the connection is not online, in words (auth refusal, unreachable gateway). */
  readonly lastError: Accessor<string | undefined>;
  /** A long sync replay being stored (this tab's session only): how far it is, for the status banner. */
  readonly catchUp?: Accessor<CatchUp | undefined>;
  /** The gateway has not answered this connection's sync for a while (this tab's session only): the banner says so. */
  readonly syncUnanswered?: Accessor<boolean>;
  /** Whether this tab holds the socket. */
  readonly isLeader: Accessor<boolean>;
  /** Elects a leader tab and, if paired, connects. */
  start(): Promise<void>;
  /** Disconnects and releases the lock (another tab takes over). */
  stop(): Promise<void>;
  /** Stores the gateway URL and token (and this device's id) and connects with them. */
  pair(url: string, token: string): Promise<void>;
  /** Disconnects and deletes everything stored for the gateway. */
  forget(): Promise<void>;
  /** The lane on screen: its newest history page is fetched now and after every reconnect. */
  setActiveLane(lane: string | undefined): void;
  /** Offline and waiting to reconnect: try the gateway now (the banner's "Try now"). */
  retryNow(): void;
  readonly activeLane: Accessor<string | undefined>;
  /**
   * A streamed message's newest text as received, before it is stored (a signal; only in the tab that
   * holds the socket): the bubble of a streaming row shows it instead of the row's text.
   */
  arrivingText(messageId: string): string | undefined;
  /** The leader's session (tests and diagnostics); undefined in followers or when not paired. */
  readonly session: () => GatewaySession | undefined;
}

export interface ClientOptions {
  db: IrisDB;
  WebSocketImpl?: WebSocketConstructor;
  /** Several tabs share one socket (default: when Web Locks and BroadcastChannel exist). */
  multiTab?: boolean;
  reducer?: Reducer;
  timers?: Timers;
  random?: () => number;
  wakeSource?: WakeSource;
  flushScheduler?: FlushScheduler;
  requestTimeoutMs?: number;
  pingIntervalMs?: number;
  deadAfterMs?: number;
  /** How long a download may receive nothing before it counts as stalled (default 60 s). */
  pullStallMs?: number;
  deviceName?: string;
}

// The store's reducer loads with the first frame (see lazyReducer): not on an unpaired first screen.
const storeReducer: Reducer = lazyReducer(async () => {
  const { applyFrame, applyFrames } = await import('../store/reducer');
  return { apply: applyFrame, applyBatch: applyFrames };
});

/**
 * The code a connection needs, loaded on demand. The pairing screen fetches it early, so that Connect
 * works even when the server that served the page has stopped answering by then.
 */
export function loadSessionCode() {
  return import('../net/session');
}

export function createClient(options: ClientOptions): IrisClient {
  const { db } = options;
  const [state, setState] = createSignal<ConnectionState>('offline');
  const [lastError, setLastError] = createSignal<string | undefined>(undefined);
  const [catchUp, setCatchUp] = createSignal<CatchUp | undefined>(undefined);
  const [syncUnanswered, setSyncUnanswered] = createSignal(false);
  const [isLeader, setLeader] = createSignal(false);
  const [activeLane, setActiveLaneSignal] = createSignal<string | undefined>(undefined);
  const multiTab =
    options.multiTab ??
    (typeof BroadcastChannel !== 'undefined' && typeof navigator !== 'undefined' && 'locks' in navigator);
  const suffix = db.name === 'iris' ? '' : `:${db.name}`;
  const arriving = createArrivingText();

  let session: GatewaySession | undefined;
  let bus: TabBus | undefined;
  let releaseLock: (() => void) | undefined;
  let started = false;
  let leaderKnown: (() => void) | undefined;
  let remote: Transport | undefined;
  /** Serializes session restarts (pair, forget and leadership can race). */
  let restarting: Promise<void> = Promise.resolve();

  const announce = () => bus?.announceState(state(), lastError());

  async function readConfig(): Promise<GatewayConfig | undefined> {
    const [url, token] = await Promise.all([getSetting(db, 'gatewayUrl'), getSetting(db, 'token')]);
    if (!url || !token) return undefined;
    return {
      url,
      token,
      deviceId: await getDeviceId(db),
      deviceName: options.deviceName ?? (await getSetting(db, 'deviceName')) ?? defaultDeviceName(),
      push: 'none',
      // Read at every hello: notifications turned on (or renewed by the service worker) while connected.
      pushHello: () => import('../push/registration').then((m) => m.pushHello(db)),
    };
  }

  /** (Re)creates the session from the settings; leader only. */
  function restartSession(): Promise<void> {
    const next = restarting.then(async () => {
      const old = session;
      session = undefined;
      setCatchUp(undefined);
      setSyncUnanswered(false);
      await old?.stop();
      // Its texts would go stale: a session in another tab may write the store from now on.
      arriving.clear();
      if (!started || !isLeader()) return;
      const config = await readConfig();
      if (!config) {
        setState('offline');
        setLastError(undefined);
        announce();
        return;
      }
      // The session's code (socket, pipeline, transfers) loads only once there is a gateway to talk
      // to: an unpaired browser's first screen goes without it.
      const { GatewaySession } = await loadSessionCode();
      if (!started || !isLeader()) return;
      const s = new GatewaySession({
        db,
        config,
        reducer: options.reducer ?? storeReducer,
        WebSocketImpl: options.WebSocketImpl,
        timers: options.timers,
        random: options.random,
        wakeSource: options.wakeSource,
        flushScheduler: options.flushScheduler,
        requestTimeoutMs: options.requestTimeoutMs,
        pingIntervalMs: options.pingIntervalMs,
        deadAfterMs: options.deadAfterMs,
        pullStallMs: options.pullStallMs,
        activeLane,
        onText: (messageId, text) => {
          if (session === s) arriving.set(messageId, text);
        },
        onCatchUp: (progress) => {
          if (session === s) setCatchUp(progress);
        },
        onSyncUnanswered: (unanswered) => {
          if (session === s) setSyncUnanswered(unanswered);
        },
        onState: (st) => {
          if (session !== s) return;
          setState(st);
          setLastError(s.lastError());
          announce();
        },
      });
      session = s;
      await s.start();
    });
    // This caller hears why a restart failed (its code did not load); the next restart still runs.
    restarting = next.catch(() => undefined);
    return next;
  }

  const local = localTransport(() => session, restartSession);
  const transport = (): Transport => (isLeader() || !remote ? local : remote);
  const commands = lazyCommands(db, transport);

  function becomeLeader(): void {
    if (!started) return;
    setLeader(true);
    leaderKnown?.();
    bus?.serve(serveTransport(local));
    restartSession().catch((err: unknown) => console.warn('iris: could not start the connection', err));
  }

  /**
   * The newest page of the lane on screen. A failure (the commands' code not fetched yet on a first
   * visit, a request lost) is tried again a few times while the lane is still on screen and online:
   * once, and a lane opened empty stayed empty until the next reconnect.
   */
  function loadNewestOf(lane: string, attempt = 0): void {
    commands.loadNewest(lane).catch((err: unknown) => {
      console.warn('iris: could not load the newest page of the lane', err);
      if (attempt >= NEWEST_RETRIES) return;
      setTimeout(
        () => {
          if (activeLane() === lane && state() === 'online') loadNewestOf(lane, attempt + 1);
        },
        NEWEST_RETRY_MS * 2 ** attempt,
      );
    });
  }

  function onBusMessage(m: BusMessage): void {
    if (m.t === 'state' && !isLeader()) {
      leaderKnown?.();
      const wasOnline = state() === 'online';
      setState(m.state);
      setLastError(m.error);
      // The leader reconnected: this tab's lane needs its newest page too.
      const lane = activeLane();
      if (!wasOnline && m.state === 'online' && lane) loadNewestOf(lane);
    } else if (m.t === 'who' && isLeader()) {
      announce();
    } else if (m.t === 'outbox' && isLeader()) {
      session?.sender.kick();
    } else if (m.t === 'retry' && isLeader()) {
      local.retryNow();
    }
  }

  const client: IrisClient = {
    ...commands,
    state,
    lastError,
    catchUp,
    syncUnanswered,
    isLeader,
    activeLane,
    arrivingText: (messageId) => arriving.get(messageId),
    session: () => session,
    retryNow: () => transport().retryNow(),

    async start() {
      if (started) return;
      started = true;
      if (multiTab) {
        bus = new TabBus({ channelName: `iris-connection${suffix}` });
        remote = remoteTransport(bus);
        bus.listen(onBusMessage);
        // Wait until this tab knows who leads (itself, or another tab answering `who`).
        const known = new Promise<void>((resolve) => (leaderKnown = resolve));
        bus.post({ t: 'who' });
        releaseLock = electLeader(`iris-connection${suffix}`, becomeLeader);
        await Promise.race([known, new Promise((r) => setTimeout(r, 1000))]);
      } else {
        becomeLeader();
      }
      await restarting;
    },

    async stop() {
      if (!started) return;
      started = false;
      await restartSession(); // stops the session; no new one while stopped
      setLeader(false);
      releaseLock?.();
      releaseLock = undefined;
      bus?.close();
      bus = undefined;
      remote = undefined;
      setState('offline');
    },

    async pair(url, token) {
      const gatewayUrl = normalizeGatewayUrl(url);
      if (token.trim() === '') throw new Error('Enter the token printed by the gateway.');
      await db.transaction('rw', db.settings, async () => {
        await setSetting(db, 'gatewayUrl', gatewayUrl);
        await setSetting(db, 'token', token.trim());
      });
      await getDeviceId(db);
      if (!started) await client.start();
      await transport().reconfigure();
    },

    async forget() {
      // Push first: it needs the connection (push: none) and the stored relay topic, both gone after this.
      await import('../push/subscribe')
        .then(({ disablePush }) => disablePush({ db, register: (payload) => commands.registerPush(payload) }))
        .catch((err: unknown) =>
          console.warn('iris: could not turn notifications off before forgetting the gateway', err),
        );
      // Unpair first so the leader closes the socket, then nothing new lands while the cache is cleared.
      await db.transaction('rw', db.settings, async () => {
        await db.settings.bulkDelete(['gatewayUrl', 'token']);
      });
      await transport()
        .reconfigure()
        .catch((err: unknown) =>
          console.warn('iris: could not close the connection while forgetting the gateway', err),
        );
      // The theme and this device's name belong to the device, not to the gateway: they stay.
      await db.transaction('rw', db.tables, async () => {
        const kept = (await db.settings.bulkGet([...DEVICE_SETTINGS])).filter((row) => row !== undefined);
        await Promise.all(db.tables.map((t) => t.clear()));
        await db.settings.bulkPut(kept);
      });
    },

    setActiveLane(lane) {
      setActiveLaneSignal(lane);
      if (lane && state() === 'online') loadNewestOf(lane);
    },
  };
  return client;
}

/** Accepts ws(s):// URLs, and http(s):// ones (mapped to ws(s)://); anything else is a clear error. */
export function normalizeGatewayUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error('The gateway URL is not a valid address (e.g. wss://host/ws).');
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new Error('The gateway URL must start with wss:// or ws://.');
  if (url.username || url.password) throw new Error('Put the token in the token field, not in the URL.');
  return url.toString();
}
