// The media settings, one settings row each (keys of their own, so the store's typed settings stay as they are).
import type { IrisDB } from '../db';
import { DEFAULT_CACHE_CAP_BYTES } from '../../protocol/mediaLimits';

const AUTO_DOWNLOAD_KEY = 'media.autoDownload';
const CACHE_CAP_KEY = 'media.cacheCap';

export interface MediaSettings {
  /** Images and voice messages up to 5 MiB download by themselves. */
  autoDownload: boolean;
  /** Bytes of downloaded media kept before the least recently used is evicted. */
  cacheCap: number;
}

/** Smallest cap that can be set (bytes). */
const MIN_CACHE_CAP_BYTES = 1024 * 1024;

export async function getMediaSettings(db: IrisDB): Promise<MediaSettings> {
  const [auto, cap] = await db.settings.bulkGet([AUTO_DOWNLOAD_KEY, CACHE_CAP_KEY]);
  const capValue = cap?.value;
  return {
    autoDownload: typeof auto?.value === 'boolean' ? auto.value : true,
    cacheCap:
      typeof capValue === 'number' && Number.isSafeInteger(capValue) && capValue >= MIN_CACHE_CAP_BYTES
        ? capValue
        : DEFAULT_CACHE_CAP_BYTES,
  };
}

export async function setAutoDownload(db: IrisDB, on: boolean): Promise<void> {
  await db.settings.put({ key: AUTO_DOWNLOAD_KEY, value: on });
}

export async function setCacheCap(db: IrisDB, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes < MIN_CACHE_CAP_BYTES)
    throw new Error('The media cache needs at least 1 MB.');
  await db.settings.put({ key: CACHE_CAP_KEY, value: bytes });
}
