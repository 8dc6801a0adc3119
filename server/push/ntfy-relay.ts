/**
 * A relay for gateways that only speak ntfy: it accepts ntfy's publish API and forwards each message as a
 * Web Push to the browsers registered for that topic. Topics are secrets: they are never logged.
 *
 *   POST|PUT /push/ntfy/<topic>   message in the body; Title/Priority/Tags/Click headers (or query params)
 *   POST|PUT /push/ntfy           ntfy's JSON form: {topic, message, title, priority, tags, click}
 *   POST     /push/ntfy-subscribe {topic, subscription}   register a browser (the app, in proxy mode)
 *   DELETE   /push/ntfy-subscribe {topic, endpoint}       unregister it
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientIp, IpRateLimiter, type RateLimit } from '../http/client-ip';
import { HttpError, readBody, readJson, sendError, sendJson } from './http-util';
import { openNtfySubscriptionStore, isRelayTopic, type NtfySubscriptionStore } from './ntfy-store';
import type { PushMessage } from '../../src/protocol/push';
import { cutUtf8, cutUtf8Bytes, encodePushMessage, TTL_SECONDS, type Delivery } from './payload';
import { endpointPolicy, type EndpointPolicy } from './endpoint-guard';
import { checkSubscription } from './subscription';
import type { PushLog } from './types';
import type { WebPushSender } from './webpush-sender';

const NTFY_PUBLISH_PATH = '/push/ntfy';
const NTFY_SUBSCRIBE_PATH = '/push/ntfy-subscribe';

/** ntfy's own message limit; longer messages are cut. */
const NTFY_MESSAGE_MAX_BYTES = 4096;
/** Larger publish bodies are refused (413) instead of read. */
const PUBLISH_BODY_MAX_BYTES = 256 * 1024;
const JSON_PUBLISH_MAX_BYTES = 64 * 1024;
const SUBSCRIBE_BODY_MAX_BYTES = 8 * 1024;
const MAX_TAGS = 10;
const TAG_MAX_BYTES = 64;
const CLICK_MAX_LENGTH = 2048;
/** ntfy keeps messages 12 h by default; `expires` in our answer says the same. */
const NTFY_CACHE_SECONDS = 12 * 60 * 60;

export interface NtfyMessageInput {
  title?: string;
  body: string;
  /** URL opened when the notification is clicked (http/https only; anything else is dropped). */
  click?: string;
  /** 1..5 or ntfy's names (min, low, default, high, max, urgent). */
  priority?: number | string;
  tags?: string[] | string;
}

/** What ntfy answers a publish with (a subset of its message object). */
export interface NtfyPublished {
  id: string;
  time: number;
  expires: number;
  event: 'message';
  topic: string;
  message: string;
  title?: string;
  tags?: string[];
  priority?: number;
  click?: string;
}

export interface NtfyRelay {
  /** Handles the relay's paths; returns false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Publishes like an ntfy server would: forwards to the topic's registered browsers, off the caller's path.
   * Returns the ntfy message, or null when no browser is registered for `topic`. Throws HttpError(400) on
   * an invalid priority.
   */
  publishNtfy(topic: string, input: NtfyMessageInput): NtfyPublished | null;
  readonly store: NtfySubscriptionStore;
}

export interface NtfyRelayOptions {
  dataDir: string;
  sender: WebPushSender;
  log?: PushLog;
  /** Which push endpoints may be registered (see endpoint-guard.ts). */
  endpoints?: EndpointPolicy;
  maxTopics?: number;
  maxPerTopic?: number;
  /** Topics never published to are forgotten after this long (default 30 days). */
  idleTopicMs?: number;
  /**
   * Per client address (default: publish 60 at once then 1/s; subscribe and unsubscribe 10 at once then
   * 1 a minute, so one address cannot fill the relay). `false`: no limits.
   */
  rateLimits?: { publish: RateLimit; subscribe: RateLimit } | false;
}

export const DEFAULT_RELAY_RATE_LIMITS = {
  publish: { burst: 60, perSecond: 1 },
  subscribe: { burst: 10, perSecond: 1 / 60 },
} as const;

const PRIORITY_NAMES: Record<string, number> = { min: 1, low: 2, default: 3, high: 4, max: 5, urgent: 5 };

function parsePriority(value: number | string | undefined): number | undefined {
  // ntfy treats an empty or 0 priority as "not given".
  if (value === undefined || value === '' || value === 0 || value === '0') return undefined;
  const text = String(value).trim().toLowerCase();
  const n = /^[1-5]$/.test(text) ? Number(text) : PRIORITY_NAMES[text];
  if (n === undefined)
    throw new HttpError(400, 'invalid priority: use 1 to 5, or min, low, default, high, max, urgent');
  return n;
}

function parseTags(value: string[] | string | undefined): string[] | undefined {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const tags = raw
    .filter((t): t is string => typeof t === 'string')
    .map((t) => cutUtf8(t.trim(), TAG_MAX_BYTES, ''))
    .filter((t) => t !== '')
    .slice(0, MAX_TAGS);
  return tags.length > 0 ? tags : undefined;
}

function parseClick(value: string | undefined): string | undefined {
  if (!value || value.length > CLICK_MAX_LENGTH) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Iris notification kinds a publisher can signal with a tag, so the service worker treats them alike. */
const KIND_TAGS = ['approval', 'clarify', 'cron'];

function urgencyFor(priority: number | undefined): Delivery['urgency'] {
  if (priority === undefined || priority === 3) return 'normal';
  return priority >= 4 ? 'high' : priority === 2 ? 'low' : 'very-low';
}

/** Header values arrive as latin1; ntfy accepts raw UTF-8 and RFC 2047 encoded-words (=?UTF-8?B?...?=). */
function decodeHeaderValue(value: string): string {
  const encodedWord = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  if (encodedWord.test(value)) {
    return value
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(encodedWord, (_m, charset: string, enc: string, text: string) => {
        if (!/^utf-?8$/i.test(charset) && !/^(us-ascii|iso-8859-1)$/i.test(charset)) return text;
        const bytes =
          enc.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(
                text
                  .replace(/_/g, ' ')
                  .replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
                'latin1',
              );
        return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
      });
  }
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\uFFFD') ? value : utf8;
}

/** ntfy's readParam: the first of `names` found as a header, then as a query parameter. */
function readParam(req: IncomingMessage, query: URLSearchParams, ...names: string[]): string | undefined {
  for (const name of names) {
    const header = req.headers[name];
    const value = Array.isArray(header) ? header[0] : header;
    if (value !== undefined && value !== '') return decodeHeaderValue(value).trim();
  }
  for (const name of names) {
    const value = query.get(name);
    if (value !== null && value !== '') return value.trim();
  }
  return undefined;
}

export function createNtfyRelay(options: NtfyRelayOptions): NtfyRelay {
  const { sender, endpoints = endpointPolicy() } = options;
  const log = options.log ?? (() => undefined);
  const store = openNtfySubscriptionStore(options.dataDir, {
    log,
    endpoints,
    maxTopics: options.maxTopics,
    maxPerTopic: options.maxPerTopic,
    idleTopicMs: options.idleTopicMs,
  });
  const limits = options.rateLimits === false ? undefined : (options.rateLimits ?? DEFAULT_RELAY_RATE_LIMITS);
  const publishLimiter = limits && new IpRateLimiter(limits.publish);
  const subscribeLimiter = limits && new IpRateLimiter(limits.subscribe);

  /** True (and answered 429) when this address is over its rate. */
  function overLimit(req: IncomingMessage, res: ServerResponse, limiter: IpRateLimiter | undefined): boolean {
    if (!limiter || limiter.take(clientIp(req))) return false;
    log('push.ntfy.rate_limited');
    sendError(req, res, 429, `too many requests from this address; try again in ${limiter.retryAfterSeconds} s`, {
      'retry-after': String(limiter.retryAfterSeconds),
    });
    return true;
  }

  function publishNtfy(topic: string, input: NtfyMessageInput): NtfyPublished | null {
    if (!isRelayTopic(topic) || !store.has(topic)) return null;
    store.markPublished(topic);
    const priority = parsePriority(input.priority);
    const tags = parseTags(input.tags);
    const click = parseClick(input.click);
    const title = input.title ? cutUtf8(input.title, 256) : undefined;
    const message = cutUtf8(String(input.body ?? ''), NTFY_MESSAGE_MAX_BYTES) || 'triggered';
    const time = Math.floor(Date.now() / 1000);
    const published: NtfyPublished = {
      id: randomBytes(9).toString('base64url'),
      time,
      expires: time + NTFY_CACHE_SECONDS,
      event: 'message',
      topic,
      message,
      ...(title ? { title } : {}),
      ...(tags ? { tags } : {}),
      ...(priority !== undefined ? { priority } : {}),
      ...(click ? { click } : {}),
    };
    const kind = tags?.find((t) => KIND_TAGS.includes(t)) ?? 'generic';
    const push: PushMessage = {
      kind,
      title: title ?? '',
      body: message,
      ts: Date.now(),
      source: 'ntfy',
      click,
      tags,
      priority,
    };
    const question = kind === 'approval' || kind === 'clarify';
    // No Topic header: a gateway sends all of a device's notifications to one ntfy topic, and collapsing
    // them would let a chat message replace an unanswered approval while the device is offline.
    const delivery: Delivery = {
      ttl: question ? TTL_SECONDS.question : TTL_SECONDS.default,
      urgency: question || kind === 'cron' ? 'high' : urgencyFor(priority),
    };
    const json = encodePushMessage(push);
    const now = Date.now();
    let queued = 0;
    for (const subscription of store.list(topic)) {
      if (typeof subscription.expirationTime === 'number' && subscription.expirationTime < now) {
        store.remove(topic, subscription.endpoint);
        continue;
      }
      const endpoint = subscription.endpoint;
      const ok = sender.enqueue({
        subscription,
        json,
        delivery,
        label: 'ntfy-relay',
        onGone: () => {
          if (store.remove(topic, endpoint)) log('push.ntfy.subscription_removed', { reason: 'gone' });
        },
      });
      if (ok) queued++;
    }
    log('push.ntfy.published', { queued, kind });
    return published;
  }

  async function handlePublishToTopic(
    req: IncomingMessage,
    res: ServerResponse,
    topic: string,
    query: URLSearchParams,
  ) {
    if (!isRelayTopic(topic) || !store.has(topic)) {
      log('push.ntfy.unknown_topic');
      return sendError(req, res, 404, 'topic not found: no browser is registered for this topic');
    }
    // Keep a few bytes past the limit so a cut is detected and lands on a character boundary.
    const { bytes } = await readBody(req, { keepBytes: NTFY_MESSAGE_MAX_BYTES + 4, maxBytes: PUBLISH_BODY_MAX_BYTES });
    const body = cutUtf8Bytes(bytes, NTFY_MESSAGE_MAX_BYTES);
    const published = publishNtfy(topic, {
      body: body || readParam(req, query, 'x-message', 'message', 'm') || '',
      title: readParam(req, query, 'x-title', 'title', 'ti', 't'),
      priority: readParam(req, query, 'x-priority', 'priority', 'prio', 'p'),
      tags: readParam(req, query, 'x-tags', 'tags', 'tag', 'ta'),
      click: readParam(req, query, 'x-click', 'click'),
    });
    if (!published) return sendError(req, res, 404, 'topic not found: no browser is registered for this topic');
    sendJson(res, 200, published);
  }

  async function handlePublishJson(req: IncomingMessage, res: ServerResponse) {
    const data = await readJson(req, JSON_PUBLISH_MAX_BYTES);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      return sendError(req, res, 400, 'JSON body must be an object like {"topic": "...", "message": "..."}');
    }
    const { topic, message, title, priority, tags, click } = data as Record<string, unknown>;
    if (typeof topic !== 'string' || topic === '') return sendError(req, res, 400, 'JSON body needs a "topic"');
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const published = publishNtfy(topic, {
      body: str(message) ?? '',
      title: str(title),
      priority: typeof priority === 'number' || typeof priority === 'string' ? priority : undefined,
      tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : str(tags),
      click: str(click),
    });
    if (!published) {
      log('push.ntfy.unknown_topic');
      return sendError(req, res, 404, 'topic not found: no browser is registered for this topic');
    }
    sendJson(res, 200, published);
  }

  async function handleSubscribe(req: IncomingMessage, res: ServerResponse) {
    const data = await readJson(req, SUBSCRIBE_BODY_MAX_BYTES);
    if (typeof data !== 'object' || data === null) return sendError(req, res, 400, 'JSON body must be an object');
    const { topic, subscription, endpoint } = data as Record<string, unknown>;
    if (!isRelayTopic(topic)) {
      return sendError(
        req,
        res,
        400,
        'topic must be 22 to 64 characters of A-Z, a-z, 0-9, "-" and "_" (a random 128-bit value)',
      );
    }
    if (req.method === 'DELETE') {
      const target =
        typeof endpoint === 'string'
          ? endpoint
          : typeof subscription === 'object' && subscription !== null
            ? (subscription as { endpoint?: unknown }).endpoint
            : undefined;
      if (typeof target !== 'string' || target === '')
        return sendError(req, res, 400, 'give the "endpoint" to unregister');
      const removed = store.remove(topic, target);
      log('push.ntfy.unsubscribed', { removed });
      return sendJson(res, 200, { ok: true, removed });
    }
    const checked = checkSubscription(subscription, endpoints);
    if (!checked.ok) return sendError(req, res, 400, checked.reason);
    const result = store.add(topic, checked.subscription);
    log('push.ntfy.subscribed', { result });
    sendJson(res, result === 'added' ? 201 : 200, { ok: true, result });
  }

  function route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> | null {
    const method = req.method ?? 'GET';
    if (path === NTFY_SUBSCRIBE_PATH) {
      if (method !== 'POST' && method !== 'DELETE') return methodNotAllowed(req, res, 'POST, DELETE');
      if (overLimit(req, res, subscribeLimiter)) return Promise.resolve();
      return handleSubscribe(req, res);
    }
    if (path === NTFY_PUBLISH_PATH || path === `${NTFY_PUBLISH_PATH}/`) {
      if (method !== 'POST' && method !== 'PUT') return methodNotAllowed(req, res, 'POST, PUT');
      if (overLimit(req, res, publishLimiter)) return Promise.resolve();
      return handlePublishJson(req, res);
    }
    if (path.startsWith(`${NTFY_PUBLISH_PATH}/`)) {
      const topic = path.slice(NTFY_PUBLISH_PATH.length + 1);
      if (method !== 'POST' && method !== 'PUT') return methodNotAllowed(req, res, 'POST, PUT');
      if (overLimit(req, res, publishLimiter)) return Promise.resolve();
      return handlePublishToTopic(req, res, topic, query);
    }
    return null;
  }

  return {
    store,
    publishNtfy,
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://relay.invalid');
      const work = route(req, res, url.pathname, url.searchParams);
      if (!work) return false;
      work.catch((err: unknown) => {
        if (err instanceof HttpError) return sendError(req, res, err.status, err.message);
        log('push.ntfy.error', { reason: err instanceof Error ? err.message : String(err) });
        sendError(req, res, 500, 'the relay failed to handle this request');
      });
      return true;
    },
  };
}

function methodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string): Promise<void> {
  sendError(req, res, 405, `method ${req.method} is not allowed here; use ${allow}`, { allow });
  return Promise.resolve();
}

/** For access logs: the request path with any relay topic replaced, so topics never reach a log. */
export function redactPushPath(path: string): string {
  return path.replace(/^(\/push\/ntfy\/)[^?#]*/, '$1<topic>').replace(/([?&](?:topic)=)[^&#]*/g, '$1<topic>');
}
