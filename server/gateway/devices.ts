// Known devices (known once they said hello): how to wake each one (a PushTarget) and its outbox,
// every non-coalescable frame it should get and has not acknowledged, numbered by an increasing
// integer cursor (spec README §8, §16).
import { encodeFrame, type ServerFrame, type WebPushSubscription } from '../../src/protocol';
import { safeName, type Persistence } from './persistence';
import type { PushMode, PushTarget } from './types';

export interface OutboxEntry {
  cursor: number;
  /**
   * The encoded frame as every copy is sent (live and replayed): without a request id (replayed
   * frames answer no request), with its `cursor` in the envelope (spec README §16).
   */
  frame: string;
}

/** A frame as it is outboxed: any server frame without its request id. */
export type OutboxFrame = Omit<ServerFrame, 'id'>;

export interface DeviceRecord {
  device_id: string;
  name?: string;
  target: PushTarget;
  /** The newest cursor handed out for this device (0 = none yet). */
  cursor: number;
  outbox: OutboxEntry[];
}

const PUSH_MODES: readonly PushMode[] = ['fcm', 'ntfy', 'none', 'webpush'];
const MAX_FIELD = 4096;

export class Devices {
  private readonly devices = new Map<string, DeviceRecord>();

  constructor(
    private readonly persistence: Persistence,
    private readonly outboxLimit: number,
  ) {
    for (const name of persistence.list('devices')) {
      const rec = persistence.readJson<DeviceRecord>(`devices/${name}`);
      if (!rec || typeof rec.device_id !== 'string' || typeof rec.target !== 'object') continue;
      const { entries, clean } = this.readJournal(rec.device_id);
      rec.outbox = entries;
      rec.cursor = Math.max(Number(rec.cursor) || 0, entries.at(-1)?.cursor ?? 0);
      if (entries.length > outboxLimit) entries.splice(0, entries.length - outboxLimit);
      // A torn or over-long journal is rewritten before anything is appended to it.
      if (!clean || entries.length === outboxLimit) this.rewriteJournal(rec);
      this.devices.set(rec.device_id, rec);
    }
    persistence.flushSync();
  }

  get(deviceId: string): DeviceRecord | undefined {
    return this.devices.get(deviceId);
  }

  list(): DeviceRecord[] {
    return [...this.devices.values()];
  }

  ids(): string[] {
    return [...this.devices.keys()];
  }

  pushTargets(): PushTarget[] {
    return this.list().map((d) => ({ ...d.target }));
  }

  /** Record a device from its hello (or refresh its name and push details). */
  register(deviceId: string, name: string | undefined, push: Record<string, unknown>): DeviceRecord {
    let rec = this.devices.get(deviceId);
    if (!rec) {
      rec = { device_id: deviceId, target: { device_id: deviceId, mode: 'none' }, cursor: 0, outbox: [] };
      this.devices.set(deviceId, rec);
    }
    if (name !== undefined) rec.name = name;
    applyPush(rec.target, push);
    this.save(rec);
    return rec;
  }

  /** `fcm.register` (and this project's webpush extension): update how the device is woken. */
  updatePush(deviceId: string, push: Record<string, unknown>): void {
    const rec = this.devices.get(deviceId);
    if (!rec) return;
    applyPush(rec.target, push);
    this.save(rec);
  }

  /** Forget a device's push subscription (e.g. the push service answered 404/410). */
  clearPush(deviceId: string): void {
    const rec = this.devices.get(deviceId);
    if (!rec) return;
    rec.target = { device_id: deviceId, mode: 'none' };
    this.save(rec);
  }

  /**
   * Append a frame to a device's outbox; returns the entry (the frame encoded with its cursor), or
   * undefined for an unknown device. The outbox is a journal written at once (one line per frame), so
   * a cursor is durable before any frame that carries it can be acted on.
   */
  append(deviceId: string, event: OutboxFrame): OutboxEntry | undefined {
    const rec = this.devices.get(deviceId);
    if (!rec) return undefined;
    rec.cursor += 1;
    const entry = { cursor: rec.cursor, frame: encodeFrame({ ...event, cursor: rec.cursor }) };
    rec.outbox.push(entry);
    this.persistence.appendSync(journalOf(deviceId), `${entry.cursor} ${entry.frame}\n`);
    // Trim in batches; the journal is then rewritten (atomically) with what is kept.
    if (rec.outbox.length > this.outboxLimit + Math.max(100, this.outboxLimit / 10)) {
      rec.outbox.splice(0, rec.outbox.length - this.outboxLimit);
      this.rewriteJournal(rec);
    }
    return entry;
  }

  /**
   * `sync{cursor}` acknowledges (spec README §16): the device has stored everything up to `cursor`,
   * so those entries are dropped and the journal is rewritten (atomically, at the next flush) with
   * the rest. A cursor beyond the newest acknowledges nothing (the gateway lost state). Returns how
   * many entries were dropped.
   */
  acknowledge(deviceId: string, cursor: number): number {
    const rec = this.devices.get(deviceId);
    if (!rec || cursor > rec.cursor) return 0;
    const keep = rec.outbox.findIndex((e) => e.cursor > cursor);
    const dropped = keep === -1 ? rec.outbox.length : keep;
    if (dropped === 0) return 0;
    rec.outbox.splice(0, dropped);
    // The newest cursor must outlive the entries that carried it: written before the journal shrinks,
    // or a restart would number the next frames from an older cursor.
    this.save(rec);
    this.persistence.flushSync(recordOf(deviceId));
    this.rewriteJournal(rec);
    return dropped;
  }

  /**
   * The frames after `cursor`, in order. A cursor beyond the newest means the gateway lost state
   * (or the app paired with another gateway): every frame it has is then news to the app.
   */
  since(deviceId: string, cursor: number): OutboxEntry[] {
    const rec = this.devices.get(deviceId);
    if (!rec) return [];
    const from = cursor > rec.cursor ? 0 : cursor;
    return rec.outbox.filter((e) => e.cursor > from);
  }

  private save(rec: DeviceRecord): void {
    this.persistence.mark(recordOf(rec.device_id), () => ({ ...rec, outbox: [] }));
  }

  private rewriteJournal(rec: DeviceRecord): void {
    this.persistence.mark(
      journalOf(rec.device_id),
      () => rec.outbox.map((e) => `${e.cursor} ${e.frame}\n`).join(''),
      true,
    );
  }

  /** The journal's entries; `clean` is false when a line had to be skipped (e.g. torn by a crash). */
  private readJournal(deviceId: string): { entries: OutboxEntry[]; clean: boolean } {
    const text = this.persistence.readText(journalOf(deviceId)) ?? '';
    const entries: OutboxEntry[] = [];
    let clean = true;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const space = line.indexOf(' ');
      const cursor = Number(line.slice(0, space));
      let frame = line.slice(space + 1);
      let ok = space > 0 && Number.isSafeInteger(cursor) && cursor > (entries.at(-1)?.cursor ?? 0);
      try {
        const parsed = ok ? (JSON.parse(frame) as OutboxFrame) : undefined;
        // A journal written before frames carried their cursor: the frame gets it now.
        if (parsed && parsed.cursor !== cursor) frame = encodeFrame({ ...parsed, cursor });
      } catch {
        ok = false;
      }
      if (ok) entries.push({ cursor, frame });
      else clean = false;
    }
    return { entries, clean };
  }
}

function recordOf(deviceId: string): string {
  return `devices/${safeName(deviceId)}.json`;
}

function journalOf(deviceId: string): string {
  return `outbox/${safeName(deviceId)}.log`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD ? value : undefined;
}

/** A PushSubscription.toJSON() we can use, or undefined. */
function parseWebPush(value: unknown): WebPushSubscription | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const endpoint = str(v.endpoint);
  const keys = v.keys as Record<string, unknown> | undefined;
  if (!endpoint || !/^https?:\/\//i.test(endpoint) || typeof keys !== 'object' || keys === null) return undefined;
  const p256dh = str(keys.p256dh);
  const auth = str(keys.auth);
  if (!p256dh || !auth) return undefined;
  const expirationTime = typeof v.expirationTime === 'number' ? v.expirationTime : null;
  return { endpoint, expirationTime, keys: { p256dh, auth } };
}

/** Merge push details from hello (caps.push + fields) or fcm.register into a target. */
function applyPush(target: PushTarget, push: Record<string, unknown>): void {
  const webpush = parseWebPush(push.webpush);
  const fcm = str(push.fcm_token);
  const ntfy = str(push.ntfy_topic);
  if (webpush) target.webpush = webpush;
  if (fcm) target.fcm_token = fcm;
  if (ntfy) target.ntfy_topic = ntfy;
  const asked =
    typeof push.push === 'string' && (PUSH_MODES as string[]).includes(push.push) ? (push.push as PushMode) : undefined;
  if (asked) target.mode = asked;
  else if (webpush) target.mode = 'webpush';
  else if (fcm) target.mode = 'fcm';
  else if (ntfy) target.mode = 'ntfy';
}
