// The numbers the media feature is built around, in one place.
const MiB = 1024 * 1024;

/** Largest attachment the app sends: the reference gateway's limit (spec README §10). */
export const MAX_UPLOAD_BYTES = 20 * MiB;
/** Images and voice messages up to this size download by themselves (when the setting is on). */
export const AUTO_DOWNLOAD_MAX_BYTES = 5 * MiB;
/** Default size cap of the media cache; least recently used media beyond it is evicted. */
export const DEFAULT_CACHE_CAP_BYTES = 500 * MiB;
/** How long the service worker waits for the app to download media it was asked for. */
export const WORKER_PULL_TIMEOUT_MS = 20_000;
