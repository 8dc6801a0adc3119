/**
 * Publishes to a real ntfy server over HTTP (ntfy's header form), for gateway devices in `ntfy` mode when
 * the operator points them at ntfy.sh or a self-hosted ntfy instead of this server's relay. Fire and forget.
 */
import { endpointOrigin } from './subscription';
import type { NtfyMessageInput } from './ntfy-relay';
import type { PushLog } from './types';

export interface NtfyHttpPublisherOptions {
  /** The ntfy server's base URL, e.g. https://ntfy.sh or https://iris.example/push/ntfy. */
  baseUrl: string;
  timeoutMs?: number;
  /** Publishes in flight at once; more are dropped and logged (default 16). */
  maxInFlight?: number;
  log?: PushLog;
}

export interface NtfyHttpPublisher {
  publish(topic: string, input: NtfyMessageInput): void;
}

/** Header values must be latin1; anything else goes as an RFC 2047 encoded-word, which ntfy decodes. */
function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export function createNtfyHttpPublisher(options: NtfyHttpPublisherOptions): NtfyHttpPublisher {
  const { timeoutMs = 10_000, maxInFlight = 16 } = options;
  const log = options.log ?? (() => undefined);
  const base = options.baseUrl.replace(/\/+$/, '');
  const origin = endpointOrigin(base);
  let inFlight = 0;

  async function post(topic: string, input: NtfyMessageInput): Promise<void> {
    const headers: Record<string, string> = {};
    if (input.title) headers['X-Title'] = headerSafe(input.title);
    if (input.priority !== undefined) headers['X-Priority'] = String(input.priority);
    const tags = Array.isArray(input.tags) ? input.tags.join(',') : input.tags;
    if (tags) headers['X-Tags'] = headerSafe(tags);
    if (input.click) headers['X-Click'] = input.click;
    try {
      const res = await fetch(`${base}/${encodeURIComponent(topic)}`, {
        method: 'POST',
        headers,
        body: input.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      log(res.ok ? 'push.ntfy_http.sent' : 'push.ntfy_http.rejected', { origin, status: res.status });
    } catch (err) {
      log('push.ntfy_http.failed', { origin, reason: err instanceof Error ? err.name : String(err) });
    }
  }

  return {
    publish(topic, input) {
      if (inFlight >= maxInFlight) {
        log('push.ntfy_http.dropped', { origin, inFlight });
        return;
      }
      inFlight++;
      setImmediate(() => void post(topic, input).finally(() => inFlight--));
    },
  };
}
