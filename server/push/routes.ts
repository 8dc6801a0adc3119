/**
 * Everything the serving process mounts for push: the VAPID public key, the ntfy relay and its subscribe
 * endpoint, plus the PushSink the reference gateway calls. Mount `handle` before static files.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, sendJson } from './http-util';
import { createNtfyHttpPublisher } from './ntfy-publisher';
import {
  createNtfyRelay,
  type NtfyRelayOptions,
  type NtfyMessageInput,
  type NtfyPublished,
  type NtfyRelay,
} from './ntfy-relay';
import { isHighPriorityKind } from './payload';
import type { PushLog, PushPayload, PushSink, PushTarget } from './types';
import { endpointPolicy } from './endpoint-guard';
import { loadOrCreateVapid } from './vapid';
import { createWebPushSender } from './webpush-sender';
import { createWebPushSink, type GoneSubscription } from './webpush-sink';

const VAPID_PUBLIC_KEY_PATH = '/push/vapid-public-key';

export interface PushRoutesOptions {
  /** Where vapid.json and ntfy-subscriptions.json live. */
  dataDir: string;
  /** VAPID contact: a `mailto:` address or the server's public https origin. */
  subject?: string;
  /** The gateway forgets this device's subscription (may also be set later with setGoneHandler). */
  onGone?: (gone: GoneSubscription) => void;
  log?: PushLog;
  /** Per push request deadline (default 10 s). */
  timeoutMs?: number;
  concurrency?: number;
  retries?: number;
  retryDelayMs?: number;
  /** Push-service hosts endpoints may name (`--push-hosts`; default: the browsers' own push services). */
  pushHosts?: readonly string[];
  /**
   * Test only: origins of a local fake push service, reached without the endpoint checks (http and
   * loopback allowed). Never set from the command line.
   */
  testPushOrigins?: readonly string[];
  /** The relay's per-address limits (see NtfyRelayOptions.rateLimits). */
  relayRateLimits?: NtfyRelayOptions['rateLimits'];
  /**
   * ntfy-mode devices: publish to this ntfy server (e.g. https://ntfy.sh) instead of the in-process relay.
   * Unset (the default demo), they go to this server's own relay without a network hop.
   */
  ntfyServer?: string;
  /** The URL a notification published through ntfy opens (e.g. the app's link to the lane). */
  ntfyClickUrl?: (payload: PushPayload) => string | undefined;
}

export interface PushRoutes {
  /** Serves /push/*; returns false (touching nothing) for any other path. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** For the gateway: `webpush` devices get a Web Push, `ntfy` devices an ntfy publish; others are ignored. */
  sink: PushSink;
  vapidPublicKey: string;
  /** Publishes through the in-process relay exactly as an ntfy publisher reaching /push/ntfy would. */
  publishNtfy(topic: string, input: NtfyMessageInput): NtfyPublished | null;
  setGoneHandler(onGone: (gone: GoneSubscription) => void): void;
  readonly relay: NtfyRelay;
  /** Resolves when no push is queued or in flight (tests, graceful shutdown). */
  idle(): Promise<void>;
  /** Stops sending: aborts pushes in flight and waits for the relay's subscriptions to be on disk. */
  close(): Promise<void>;
}

/** How a gateway notification is published to an ntfy topic: the kind travels as a tag. */
function ntfyMessageFor(payload: PushPayload, click?: string): NtfyMessageInput {
  return {
    title: payload.title,
    body: payload.body,
    tags: [payload.kind],
    priority: isHighPriorityKind(payload.kind) ? 4 : 3,
    ...(click ? { click } : {}),
  };
}

export function createPushRoutes(options: PushRoutesOptions): PushRoutes {
  const log = options.log ?? (() => undefined);
  const vapid = loadOrCreateVapid(options.dataDir, { subject: options.subject, log });
  const endpoints = endpointPolicy({ hosts: options.pushHosts, testOrigins: options.testPushOrigins });
  const sender = createWebPushSender({
    vapid,
    log,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    retries: options.retries,
    retryDelayMs: options.retryDelayMs,
    endpoints,
  });
  let onGone =
    options.onGone ?? ((gone: GoneSubscription) => log('push.webpush.gone_unhandled', { to: gone.device_id }));
  const webpushSink = createWebPushSink({ sender, log, onGone: (gone) => onGone(gone) });
  const relay = createNtfyRelay({
    dataDir: options.dataDir,
    sender,
    log,
    endpoints,
    rateLimits: options.relayRateLimits,
  });
  const external = options.ntfyServer
    ? createNtfyHttpPublisher({ baseUrl: options.ntfyServer, timeoutMs: options.timeoutMs, log })
    : null;

  const publishToNtfy = (topic: string, input: NtfyMessageInput) => {
    if (external) return external.publish(topic, input);
    setImmediate(() => {
      try {
        if (!relay.publishNtfy(topic, input)) log('push.ntfy.unknown_topic', { from: 'gateway' });
      } catch (err) {
        log('push.ntfy.publish_failed', { reason: err instanceof Error ? err.message : String(err) });
      }
    });
  };

  const sink: PushSink = {
    send(target: PushTarget, payload: PushPayload) {
      try {
        if (target?.mode === 'webpush') webpushSink.send(target, payload);
        else if (target?.mode === 'ntfy' && target.ntfy_topic)
          publishToNtfy(target.ntfy_topic, ntfyMessageFor(payload, options.ntfyClickUrl?.(payload)));
      } catch (err) {
        log('push.sink.failed', { to: target?.device_id, reason: err instanceof Error ? err.message : String(err) });
      }
    },
  };

  return {
    sink,
    relay,
    vapidPublicKey: vapid.publicKey,
    publishNtfy: relay.publishNtfy,
    setGoneHandler(fn) {
      onGone = fn;
    },
    handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://push.invalid').pathname;
      if (path !== '/push' && !path.startsWith('/push/')) return false;
      if (relay.handle(req, res)) return true;
      if (path === VAPID_PUBLIC_KEY_PATH) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          sendError(req, res, 405, `method ${req.method} is not allowed here; use GET`, { allow: 'GET, HEAD' });
        } else {
          sendJson(res, 200, { publicKey: vapid.publicKey }, { 'cache-control': 'no-cache' });
        }
        return true;
      }
      sendError(req, res, 404, `no push endpoint at ${path.startsWith('/push/ntfy') ? '/push/ntfy/…' : path}`);
      return true;
    },
    idle: () => sender.idle(),
    async close() {
      sender.close();
      await relay.store.flush();
    },
  };
}
