/**
 * Sends Web Push requests off the caller's path: a bounded queue drained by a few concurrent workers, each
 * request with a hard deadline. Encryption (RFC 8291, aes128gcm) and the VAPID JWT come from the web-push
 * library (`generateRequestDetails`); this module only does the HTTP exchange, because web-push's own
 * sender always speaks https and has no overall deadline.
 */
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { WebPushSubscription } from '../../src/protocol';
import type { Delivery } from './payload';
import { pushTopic } from './payload';
import { createPushAgent, endpointPolicy, endpointRefusal, isTestOrigin, type EndpointPolicy } from './endpoint-guard';
import { checkSubscription, endpointOrigin } from './subscription';
import type { PushLog } from './types';
import type { Vapid } from './vapid';

export interface WebPushSenderOptions {
  vapid: Vapid;
  /** Deadline for one push request, connect to response (default 10 s). */
  timeoutMs?: number;
  /** Push requests in flight at once (default 8). */
  concurrency?: number;
  /** Jobs waiting beyond this are dropped and logged (default 1000). */
  maxQueue?: number;
  /** Retries after 429, 5xx, network errors or timeouts (default 2), spaced retryDelayMs × 5^n (default 2 s). */
  retries?: number;
  retryDelayMs?: number;
  /** Which endpoints may be reached (default: the browsers' push services, public addresses, port 443). */
  endpoints?: EndpointPolicy;
  /** The https agent (default: one whose lookup only connects to public addresses). */
  agent?: https.Agent;
  log?: PushLog;
}

interface WebPushJob {
  subscription: WebPushSubscription;
  /** The plaintext (already size-limited JSON) to encrypt. */
  json: string;
  delivery: Delivery;
  /** Called once when the push service answers 404 or 410: the subscription is gone for good. */
  onGone?: () => void;
  /** Who this is for, for logs (e.g. a device id). Never a topic, endpoint or content. */
  label?: string;
}

type WebPushOutcome = 'sent' | 'gone' | 'rejected' | 'failed' | 'timeout';

export interface WebPushSender {
  /** Queues a push and returns at once. False when it was refused (invalid subscription, full queue, closed). */
  enqueue(job: WebPushJob): boolean;
  /** Resolves when nothing is queued, in flight or waiting to retry. */
  idle(): Promise<void>;
  /** Aborts requests in flight and drops everything queued; later enqueues are refused. */
  close(): void;
  /** A Web Push Topic for `seed`, keyed by this server's VAPID key. */
  topicFor(seed: string): string;
  readonly vapidPublicKey: string;
}

class PushTimeoutError extends Error {
  constructor(ms: number) {
    super(`push service did not answer within ${ms} ms`);
    this.name = 'PushTimeoutError';
  }
}

interface AttemptResult {
  outcome: WebPushOutcome;
  status?: number;
  reason?: string;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface Attempt {
  job: WebPushJob;
  tries: number;
}

/** Response bytes kept for the log (push services explain rejections in the body). */
const REASON_MAX_BYTES = 300;

function post(
  endpoint: string,
  headers: Record<string, string | number>,
  body: Buffer | null,
  timeoutMs: number,
  signal: AbortSignal,
  endpoints: EndpointPolicy,
  agent: https.Agent,
): Promise<{ status: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    // Checked again right before connecting; the agent's lookup then checks the address it connects to.
    const refusal = endpointRefusal(url, endpoints);
    if (refusal) return reject(Object.assign(new Error(refusal), { code: 'EPUSHADDRESS' }));
    const test = isTestOrigin(url, endpoints);
    const transport = test && url.protocol === 'http:' ? http : https;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = transport.request(url, { method: 'POST', headers, signal, ...(test ? {} : { agent }) }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < REASON_MAX_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      const done = () =>
        finish(() =>
          resolve({
            status: res.statusCode ?? 0,
            reason: Buffer.concat(chunks).subarray(0, REASON_MAX_BYTES).toString('utf8').replace(/\s+/g, ' ').trim(),
          }),
        );
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    const timer = setTimeout(() => req.destroy(new PushTimeoutError(timeoutMs)), timeoutMs);
    req.on('error', (err) => finish(() => reject(err)));
    req.end(body ?? undefined);
  });
}

export function createWebPushSender(options: WebPushSenderOptions): WebPushSender {
  const {
    vapid,
    timeoutMs = 10_000,
    concurrency = 8,
    maxQueue = 1000,
    retries = 2,
    retryDelayMs = 2_000,
    endpoints = endpointPolicy(),
    log = () => undefined,
  } = options;
  const agent = options.agent ?? createPushAgent();
  const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  const queue: Attempt[] = [];
  const inFlight = new Set<AbortController>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let idleWaiters: Array<() => void> = [];
  let pumpScheduled = false;
  let closed = false;

  const isIdle = () => queue.length === 0 && inFlight.size === 0 && retryTimers.size === 0;
  const wakeIdle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const schedulePump = () => {
    if (pumpScheduled || closed) return;
    pumpScheduled = true;
    // setImmediate: the caller's turn (e.g. the gateway handling a frame) finishes before any push work starts.
    setImmediate(() => {
      pumpScheduled = false;
      while (!closed && inFlight.size < concurrency && queue.length > 0) void run(queue.shift()!);
    });
  };

  const retryLater = (attempt: Attempt) => {
    const delay = retryDelayMs * 5 ** (attempt.tries - 1);
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      if (closed) return wakeIdle();
      queue.push(attempt);
      schedulePump();
    }, delay);
    timer.unref();
    retryTimers.add(timer);
  };

  async function sendOnce(job: WebPushJob, signal: AbortSignal): Promise<AttemptResult> {
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails(job.subscription, job.json, {
        vapidDetails,
        TTL: job.delivery.ttl,
        urgency: job.delivery.urgency,
        ...(job.delivery.topic ? { topic: job.delivery.topic } : {}),
        contentEncoding: 'aes128gcm',
      });
    } catch (err) {
      // e.g. a p256dh that is not a point on the curve: retrying cannot help.
      return { outcome: 'rejected', reason: `cannot encrypt for this subscription: ${errorText(err)}` };
    }
    try {
      const res = await post(
        details.endpoint,
        details.headers as Record<string, string | number>,
        details.body,
        timeoutMs,
        signal,
        endpoints,
        agent,
      );
      const status = res.status;
      const reason = res.reason || undefined;
      if (status >= 200 && status < 300) return { outcome: 'sent', status };
      if (status === 404 || status === 410) return { outcome: 'gone', status, reason };
      if (status === 429 || status >= 500) return { outcome: 'failed', status, reason };
      return { outcome: 'rejected', status, reason };
    } catch (err) {
      // An endpoint refused by the address checks is refused for good: retrying would only knock again.
      if ((err as NodeJS.ErrnoException).code === 'EPUSHADDRESS')
        return { outcome: 'rejected', reason: errorText(err) };
      return { outcome: err instanceof PushTimeoutError ? 'timeout' : 'failed', reason: errorText(err) };
    }
  }

  async function run(attempt: Attempt): Promise<void> {
    const { job } = attempt;
    attempt.tries += 1;
    const origin = endpointOrigin(job.subscription.endpoint);
    const controller = new AbortController();
    inFlight.add(controller);
    let result: AttemptResult;
    try {
      result = await sendOnce(job, controller.signal);
    } finally {
      inFlight.delete(controller);
    }
    const { outcome, status, reason } = result;
    if (closed) return wakeIdle();
    const retrying = (outcome === 'failed' || outcome === 'timeout') && attempt.tries <= retries;
    log(`push.webpush.${outcome}`, { origin, status, reason, to: job.label, attempt: attempt.tries, retrying });
    if (outcome === 'gone') {
      try {
        job.onGone?.();
      } catch (err) {
        log('push.webpush.on_gone_failed', { reason: errorText(err) });
      }
    }
    if (retrying) retryLater(attempt);
    schedulePump();
    wakeIdle();
  }

  return {
    vapidPublicKey: vapid.publicKey,
    enqueue(job) {
      if (closed) return false;
      const checked = checkSubscription(job.subscription, endpoints);
      if (!checked.ok) {
        log('push.webpush.invalid_subscription', { reason: checked.reason, to: job.label });
        return false;
      }
      if (queue.length >= maxQueue) {
        log('push.webpush.queue_full', { to: job.label, queued: queue.length });
        return false;
      }
      queue.push({ job: { ...job, subscription: checked.subscription }, tries: 0 });
      schedulePump();
      return true;
    },
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    close() {
      closed = true;
      if (!options.agent) agent.destroy();
      queue.length = 0;
      for (const timer of retryTimers) clearTimeout(timer);
      retryTimers.clear();
      for (const controller of inFlight) controller.abort();
      wakeIdle();
    },
    topicFor(seed) {
      return pushTopic(seed, vapid.privateKey);
    },
  };
}
