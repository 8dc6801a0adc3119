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

export const NTFY_SUBSCRIPTIONS_FILE_NAME = 'ntfy-subscriptions.json';

/** Relay topics are random 128-bit values the app makes: 22+ base64url characters (ntfy allows up to 64). */
export const RELAY_TOPIC_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export function isRelayTopic(value: unknown): value is string {
  return typeof value === 'string' && RELAY_TOPIC_PATTERN.test(value);
}

interface StoredSubscription extends WebPushSubscription {
  added: number;
}

interface StoreFile {
  version: 1;
  topics: Record<string, StoredSubscription[]>;
}

export class RelayFullError extends Error {
  constructor() {
    super('the relay has reached its limit of registered topics');
    this.name = 'RelayFullError';
  }
}

export interface NtfySubscriptionStore {
  has(topic: string): boolean;
  list(topic: string): WebPushSubscription[];
  /** Registers (or refreshes) `subscription` for `topic`. Throws RelayFullError when no new topic fits. */
  add(topic: string, subscription: WebPushSubscription): 'added' | 'updated';
  /** Unregisters the subscription with `endpoint`; returns whether there was one. */
  remove(topic: string, endpoint: string): boolean;
  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void>;
}

export interface NtfyStoreOptions {
  log?: PushLog;
  /** Topics kept at most (default 10 000): registration is unauthenticated, so disk use is bounded. */
  maxTopics?: number;
  /** Browsers per topic (default 10); the oldest is dropped for a new one. */
  maxPerTopic?: number;
  /** Which endpoints already on disk are kept (see endpoint-guard.ts). */
  endpoints?: EndpointPolicy;
}

function loadTopics(path: string, options: NtfyStoreOptions): Map<string, StoredSubscription[]> {
  const topics = new Map<string, StoredSubscription[]>();
  if (!existsSync(path)) return topics;
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
    options.log?.('push.ntfy.store_damaged', { reason: err instanceof Error ? err.message : String(err), movedTo: aside });
    return topics;
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
      if (checked.ok) kept.push({ ...checked.subscription, added: Number((entry as StoredSubscription).added) || Date.now() });
      else dropped++;
    }
    if (kept.length > 0) topics.set(topic, kept);
  }
  if (dropped > 0) options.log?.('push.ntfy.store_entries_dropped', { count: dropped });
  return topics;
}

export function openNtfySubscriptionStore(dataDir: string, options: NtfyStoreOptions = {}): NtfySubscriptionStore {
  const path = join(dataDir, NTFY_SUBSCRIPTIONS_FILE_NAME);
  const { maxTopics = 10_000, maxPerTopic = 10, log } = options;
  const topics = loadTopics(path, options);
  let writing: Promise<void> | null = null;
  let dirty = false;

  const serialise = () => {
    const file: StoreFile = { version: 1, topics: Object.fromEntries(topics) };
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

  return {
    has: (topic) => topics.has(topic),
    list: (topic) =>
      (topics.get(topic) ?? []).map(({ endpoint, expirationTime, keys }) => ({ endpoint, expirationTime, keys })),
    add(topic, subscription) {
      const entries = topics.get(topic);
      if (!entries && topics.size >= maxTopics) throw new RelayFullError();
      const list = entries ?? [];
      const index = list.findIndex((s) => s.endpoint === subscription.endpoint);
      const stored = { ...subscription, added: Date.now() };
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
      if (rest.length === 0) topics.delete(topic);
      else topics.set(topic, rest);
      void persist();
      return true;
    },
    flush: () => writing ?? Promise.resolve(),
  };
}
