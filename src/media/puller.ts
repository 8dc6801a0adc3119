// Background downloads (issue 6): media the gateway offers is pulled one file at a time, in order of
// need — what the person asked for (a tap, or the service worker on their behalf), then what is on
// screen, then (in the tab holding the connection) every image and voice message small enough to
// download by itself. Bytes land in IndexedDB through the client's pull; then the cache cap applies.
import type { IrisDB } from '../store/db';
import type { MediaRow } from '../store/schema';
import { settleSentAttachments } from './adopt';
import { imageSize } from './dimensions';
import { enforceCacheCap, evictForSpace, isQuotaError, reportEvicted, storageShort } from '../store/models/mediaCache';
import { AUTO_DOWNLOAD_MAX_BYTES } from '../protocol/mediaLimits';
import { getMediaSettings, type MediaSettings } from '../store/models/mediaSettings';

export interface PullClient {
  pull(mediaId: string): Promise<void>;
  state(): string;
  isLeader(): boolean;
}

/** Downloads by themselves when the setting is on: images and voice messages up to 5 MiB. */
export function downloadsByItself(
  row: Pick<MediaRow, 'kind' | 'size'>,
  settings: Pick<MediaSettings, 'autoDownload'>,
): boolean {
  return settings.autoDownload && (row.kind === 'image' || row.kind === 'voice') && row.size <= AUTO_DOWNLOAD_MAX_BYTES;
}

/** States whose bytes are not here and may be fetched (downloading: a pull a reload cut short). */
const FETCHABLE = new Set<MediaRow['state']>(['remote', 'downloading', 'evicted', 'failed']);

export class MediaPuller {
  /** Asked for by the person or the worker, first come first served. */
  private readonly asked: string[] = [];
  /** On screen now. */
  private readonly visible = new Set<string>();
  /** Automatic pulls that failed this session (not retried by themselves; a tap retries). */
  private readonly gaveUp = new Set<string>();
  private readonly quotaRetried = new Set<string>();
  private running = false;
  private recovered = false;
  private again = false;
  private current: string | undefined;
  private idleWaiters: (() => void)[] = [];
  /** The cap check after a kept file left the screen: one at a time, once more if another left meanwhile. */
  private trimming: Promise<void> | undefined;
  private trimAgain = false;
  /** What wakes it (watches, listeners), ended by stop(). */
  private readonly wakers: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly db: IrisDB,
    private readonly client: PullClient,
  ) {}

  /** The person (or the service worker) wants this file now. */
  request(mediaId: string): void {
    this.gaveUp.delete(mediaId);
    if (!this.asked.includes(mediaId) && this.current !== mediaId) this.asked.push(mediaId);
    this.kick();
  }

  /** A media view came on screen or left it. */
  setVisible(mediaId: string, visible: boolean): void {
    if (visible) {
      this.visible.add(mediaId);
      this.kick();
    } else if (this.visible.delete(mediaId)) {
      // The cap spared it while it showed: off screen, it may be what has to go now.
      this.trim();
    }
  }

  /** Something changed (new media, back online, a setting): look for work. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.run().finally(() => {
      this.running = false;
      for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  /** `end` is called when the puller stops: what wakes it must not outlive it. */
  ownWaker(end: () => void): void {
    if (this.stopped) end();
    else this.wakers.push(end);
  }

  /**
   * Stops what wakes it; no pull starts after this (one under way ends first). The runtime's
   * stop() calls it: a test's database is deleted next, and a puller left watching it would fail on it.
   */
  stop(): void {
    this.stopped = true;
    for (const end of this.wakers.splice(0)) end();
  }

  /** Resolves when no pull is running (tests). */
  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  /** Applies the cache cap again, sparing what is on screen and the file being pulled. */
  private trim(): void {
    if (this.trimming) {
      this.trimAgain = true;
      return;
    }
    this.trimming = (async () => {
      do {
        this.trimAgain = false;
        const keep = new Set(this.visible);
        if (this.current !== undefined) keep.add(this.current);
        await enforceCacheCap(this.db, { keep }).catch((err: unknown) =>
          console.warn('iris: could not trim the media cache', err),
        );
      } while (this.trimAgain);
    })().finally(() => {
      this.trimming = undefined;
    });
  }

  /** Resolves when the cap check after files left the screen is done (tests). */
  trimmed(): Promise<void> {
    return this.trimming ?? Promise.resolve();
  }

  private online(): boolean {
    return this.client.state() === 'online';
  }

  private async run(): Promise<void> {
    if (this.client.isLeader() && !this.recovered) {
      // Pulls run in the tab holding the connection: when that is this one, a pull that a closed tab
      // (or a reload) left half-done shows as not downloaded again; its bytes never landed.
      this.recovered = true;
      await this.db.media
        .where('state')
        .equals('downloading')
        .modify({ state: 'remote', progress: 0 })
        .catch((err: unknown) => console.warn('iris: could not reset downloads a closed tab left half-done', err));
    }
    do {
      this.again = false;
      try {
        if ((await settleSentAttachments(this.db)) > 0) await enforceCacheCap(this.db, { keep: new Set(this.visible) });
      } catch (err) {
        console.error('iris: attachments could not be settled', err);
      }
      while (this.online() && !this.stopped) {
        const next = await this.next();
        if (!next || this.stopped) break; // stopped while it looked: nothing starts after stop()
        const ok = await this.pullOne(next);
        if (!ok) break;
      }
    } while (this.again && !this.stopped);
  }

  /** The most needed file whose bytes are missing, or undefined. */
  private async next(): Promise<MediaRow | undefined> {
    const { db } = this;
    while (this.asked.length > 0) {
      const row = await db.media.get(this.asked[0]!);
      if (row && FETCHABLE.has(row.state)) return row;
      this.asked.shift();
    }
    const settings = await getMediaSettings(db);
    const wanted = (row: MediaRow | undefined): row is MediaRow =>
      row !== undefined &&
      (row.state === 'remote' || row.state === 'downloading') &&
      !this.gaveUp.has(row.media_id) &&
      downloadsByItself(row, settings);
    const onScreen = (await db.media.bulkGet([...this.visible])).find(wanted);
    if (onScreen) return onScreen;
    if (!this.client.isLeader()) return undefined;
    const waiting = await db.media.where('state').anyOf('remote', 'downloading').toArray();
    return waiting.filter(wanted).sort((a, b) => b.lastUsed - a.lastUsed)[0];
  }

  /** Pulls one file; false when the connection went (the loop waits for the next kick). */
  private async pullOne(row: MediaRow): Promise<boolean> {
    const { db } = this;
    const id = row.media_id;
    this.current = id;
    const keep = new Set([id, ...this.visible]);
    try {
      if (await storageShort(row.size)) await reportEvicted(db, await evictForSpace(db, row.size * 2, keep));
      await this.client.pull(id);
      this.forget(id);
      await this.afterPull(id, keep);
      return true;
    } catch (err) {
      if (isQuotaError(err) && !this.quotaRetried.has(id)) {
        this.quotaRetried.add(id);
        await reportEvicted(db, await evictForSpace(db, row.size * 2, keep));
        this.forget(id);
        this.asked.unshift(id); // once more, first in line
        return true;
      }
      if (!this.online()) return false;
      // The gateway could not send it (the row says why): not again by itself.
      this.forget(id);
      this.gaveUp.add(id);
      return true;
    } finally {
      this.current = undefined;
    }
  }

  private forget(id: string): void {
    const index = this.asked.indexOf(id);
    if (index >= 0) this.asked.splice(index, 1);
  }

  /** Fixes what only the bytes can tell (true size, image size), then keeps the cache within its cap. */
  private async afterPull(id: string, keep: ReadonlySet<string>): Promise<void> {
    const { db } = this;
    const [row, stored] = await Promise.all([db.media.get(id), db.mediaBlobs.get(id)]);
    if (row && stored) {
      const patch: Partial<MediaRow> = {};
      if (stored.blob.size !== row.size) patch.size = stored.blob.size;
      if (row.kind === 'image' && row.width === undefined) Object.assign(patch, (await imageSize(stored.blob)) ?? {});
      if (Object.keys(patch).length > 0) await db.media.update(id, patch);
    }
    await enforceCacheCap(db, { keep });
  }
}
