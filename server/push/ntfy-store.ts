/**
 * Which browser push subscriptions the ntfy relay forwards each topic to, kept in
 * `<dataDir>/ntfy-subscriptions.json` (mode 0600: topics are secrets) with atomic, coalesced writes.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { WebPushSubscription } from '../../src/protocol';
import { writeFileAtomic } from './atomic-file';
import type { EndpointPolicy } from './endpoint-guard';
import { checkSubscription } from './subscription';
import type { PushLog } from './types';

const NTFY_SUBSCRIPTIONS_FILE_NAME = 'ntfy-subscriptions.json';

/** Relay topics are random 128-bit values the app makes: 22+ base64url characters (ntfy allows up to 64). */
const RELAY_TOPIC_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export function isRelayTopic(value: unknown): value is string {
  return typeof value === 'string' && RELAY_TOPIC_PATTERN.test(value);
}

interface StoredSubscription extends WebPushSubscription {
  added: number;
}

interface StoreFile {
  version: 1;
  topics: Record<string, StoredSubscription[]>;
  /** When each topic was last published to (ms); a topic absent here never was. */
  published?: Record<string, number>;
}

export interface NtfySubscriptionStore {
  has(topic: string): boolean;
  list(topic: string): WebPushSubscription[];
  /**
   * Registers (or refreshes) `subscription` for `topic`. When no new topic fits, the idlest one makes
   * room (a topic never published to, the oldest first), so a flood cannot lock a real device out.
   */
  add(topic: string, subscription: WebPushSubscription): 'added' | 'updated';
  /** Notes a publish to `topic` (topics that are used are kept longest). */
  markPublished(topic: string): void;
  /** Unregisters the subscription with `endpoint`; returns whether there was one. */
  remove(topic: string, endpoint: string): boolean;
  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void>;
}

export interface NtfyStoreOptions {
  log?: PushLog;
  /** Topics kept at most (default 10 000): registration is unauthenticated, so disk use is bounded. */
  maxTopics?: number;
  /** Topics never published to are forgotten this long after their last registration (default 30 days). */
  idleTopicMs?: number;
  now?: () => number;
  /** Browsers per topic (default 10); the oldest is dropped for a new one. */
  maxPerTopic?: number;
  /** Which endpoints already on disk are kept (see endpoint-guard.ts). */
  endpoints?: EndpointPolicy;
}

function loadTopics(
  path: string,
  options: NtfyStoreOptions,
): { topics: Map<string, StoredSubscription[]>; published: Map<string, number> } {
  const topics = new Map<string, StoredSubscription[]>();
  const published = new Map<string, number>();
  if (!existsSync(path)) return { topics, published };
  let data: StoreFile;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as StoreFile;
    if (typeof data !== 'object' || data === null || typeof data.topics !== 'object' || data.topics === null) {
      throw new Error('no topics object');
    }
  } catch (err) {
    // Keep the damaged file for a person to look at; start empty rather than refuse to serve.
    const aside = `${path}.damaged-${Date.now()}`;
    renameSync(path, aside);
    options.log?.('push.ntfy.store_damaged', {
      reason: err instanceof Error ? err.message : String(err),
      movedTo: aside,
    });
    return { topics, published };
  }
  let dropped = 0;
  for (const [topic, entries] of Object.entries(data.topics)) {
    if (!isRelayTopic(topic) || !Array.isArray(entries)) {
      dropped++;
      continue;
    }
    const kept: StoredSubscription[] = [];
    for (const entry of entries) {
      const checked = checkSubscription(entry, options.endpoints);
      if (checked.ok)
        kept.push({ ...checked.subscription, added: Number((entry as StoredSubscription).added) || Date.now() });
      else dropped++;
    }
    if (kept.length > 0) topics.set(topic, kept);
  }
  if (dropped > 0) options.log?.('push.ntfy.store_entries_dropped', { count: dropped });
  for (const [topic, time] of Object.entries(data.published ?? {})) {
    if (topics.has(topic) && typeof time === 'number' && Number.isFinite(time)) published.set(topic, time);
  }
  return { topics, published };
}

export function openNtfySubscriptionStore(dataDir: string, options: NtfyStoreOptions = {}): NtfySubscriptionStore {
  const path = join(dataDir, NTFY_SUBSCRIPTIONS_FILE_NAME);
  const { maxTopics = 10_000, maxPerTopic = 10, idleTopicMs = 30 * 24 * 3600_000, log, now = Date.now } = options;
  const { topics, published } = loadTopics(path, options);
  let writing: Promise<void> | null = null;
  let dirty = false;

  const serialise = () => {
    const file: StoreFile = {
      version: 1,
      topics: Object.fromEntries(topics),
      published: Object.fromEntries(published),
    };
    return JSON.stringify(file) + '\n';
  };

  // One write at a time; changes made meanwhile are written together right after.
  const persist = (): Promise<void> => {
    dirty = true;
    if (writing) return writing;
    writing = (async () => {
      while (dirty) {
        dirty = false;
        try {
          await writeFileAtomic(path, serialise());
        } catch (err) {
          log?.('push.ntfy.store_write_failed', { reason: err instanceof Error ? err.message : String(err) });
        }
      }
      writing = null;
    })();
    return writing;
  };

  /** The newest registration of a topic. */
  const registered = (topic: string) => Math.max(0, ...(topics.get(topic) ?? []).map((s) => s.added));
  const forget = (topic: string) => {
    topics.delete(topic);
    published.delete(topic);
  };

  /** Drops topics nobody ever published to, registered longer than idleTopicMs ago; then, if still full, the idlest one. */
  const makeRoom = () => {
    const t = now();
    let expired = 0;
    for (const topic of topics.keys()) {
      if (!published.has(topic) && t - registered(topic) > idleTopicMs) {
        forget(topic);
        expired++;
      }
    }
    if (expired > 0) log?.('push.ntfy.topics_expired', { count: expired });
    if (topics.size < maxTopics) return;
    // Never published to before published to; then the longest unused.
    let idlest: string | undefined;
    let idlestKey: [number, number] = [Infinity, Infinity];
    for (const topic of topics.keys()) {
      const usedAt = published.get(topic);
      const key: [number, number] = [usedAt === undefined ? 0 : 1, Math.max(usedAt ?? 0, registered(topic))];
      if (key[0] < idlestKey[0] || (key[0] === idlestKey[0] && key[1] < idlestKey[1])) {
        idlest = topic;
        idlestKey = key;
      }
    }
    if (idlest !== undefined) {
      forget(idlest);
      log?.('push.ntfy.topic_evicted', { published: idlestKey[0] === 1 });
    }
  };

  return {
    has: (topic) => topics.has(topic),
    list: (topic) =>
      (topics.get(topic) ?? []).map(({ endpoint, expirationTime, keys }) => ({ endpoint, expirationTime, keys })),
    add(topic, subscription) {
      const entries = topics.get(topic);
      if (!entries && topics.size >= maxTopics) makeRoom();
      const list = entries ?? [];
      const index = list.findIndex((s) => s.endpoint === subscription.endpoint);
      const stored = { ...subscription, added: now() };
      if (index >= 0) list[index] = stored;
      else {
        list.push(stored);
        if (list.length > maxPerTopic) list.splice(0, list.length - maxPerTopic);
      }
      topics.set(topic, list);
      void persist();
      return index >= 0 ? 'updated' : 'added';
    },
    remove(topic, endpoint) {
      const list = topics.get(topic);
      if (!list) return false;
      const rest = list.filter((s) => s.endpoint !== endpoint);
      if (rest.length === list.length) return false;
      if (rest.length === 0) forget(topic);
      else topics.set(topic, rest);
      void persist();
      return true;
    },
    markPublished(topic) {
      if (!topics.has(topic)) return;
      published.set(topic, now());
      void persist();
    },
    flush: () => writing ?? Promise.resolve(),
  };
}
