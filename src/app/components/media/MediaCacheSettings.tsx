import { For, createSignal } from 'solid-js';
import { cacheSize, clearMediaCache, enforceCacheCap } from '../../../store/models/mediaCache';
import { formatBytes } from '../../../lib/format';
import { AUTO_DOWNLOAD_MAX_BYTES, DEFAULT_CACHE_CAP_BYTES } from '../../../protocol/mediaLimits';
import { startMediaPuller } from '../../../media/runtime';
import { getMediaSettings, setAutoDownload, setCacheCap } from '../../../store/models/mediaSettings';
import { live } from '../../../store/live';
import { useIris } from '../../../runtime';
import { SettingsSection } from '../settings/SettingsSection';
import './Media.css';

const MiB = 1024 * 1024;
const CAPS = [10, 50, 100, 250, 500, 1024, 2048, 5120].map((mb) => mb * MiB);

/** Settings → Media: what downloaded media takes on this device, the cap, auto-download, and Clear. */
export function MediaCacheSettings() {
  const iris = useIris();
  const { db } = iris;
  const size = live(() => cacheSize(db), 0);
  const settings = live(() => getMediaSettings(db));
  const [note, setNote] = createSignal('');
  const caps = () => {
    const cap = settings()?.cacheCap;
    return cap === undefined || CAPS.includes(cap) ? CAPS : [...CAPS, cap].sort((a, b) => a - b);
  };

  async function changeCap(bytes: number) {
    await setCacheCap(db, bytes);
    const evicted = await enforceCacheCap(db, { capBytes: bytes });
    setNote(
      evicted.count > 0
        ? `Removed ${evicted.count === 1 ? 'one file' : `${evicted.count} files`} (${formatBytes(evicted.bytes)}) to fit.`
        : '',
    );
  }

  async function clear() {
    const evicted = await clearMediaCache(db);
    setNote(
      evicted.count > 0
        ? `Removed ${formatBytes(evicted.bytes)}. Messages stay; their files can be downloaded again.`
        : 'Nothing to remove.',
    );
  }

  return (
    <SettingsSection title="Media">
      <dl class="settings-facts">
        <dt>Downloaded media on this device</dt>
        <dd class="media-cache-size">{formatBytes(size())}</dd>
      </dl>
      <label class="field media-cap">
        <span>Keep at most</span>
        <select onChange={(e) => void changeCap(Number(e.currentTarget.value))}>
          <For each={caps()}>
            {(cap) => (
              <option value={cap} selected={cap === (settings()?.cacheCap ?? DEFAULT_CACHE_CAP_BYTES)}>
                {formatBytes(cap)}
              </option>
            )}
          </For>
        </select>
      </label>
      <p class="settings-note">
        Beyond this, the files not opened for the longest are removed first. Messages are never removed.
      </p>
      <label class="media-auto">
        <input
          type="checkbox"
          checked={settings()?.autoDownload ?? true}
          onChange={(e) => {
            void setAutoDownload(db, e.currentTarget.checked);
            iris.shared(startMediaPuller).kick();
          }}
        />
        <span>
          Download pictures and voice messages by themselves (up to {formatBytes(AUTO_DOWNLOAD_MAX_BYTES)} each)
        </span>
      </label>
      <div class="settings-actions">
        <button type="button" class="button secondary danger-outline" onClick={() => void clear()}>
          Clear media cache
        </button>
      </div>
      <p class="settings-note" role="status">
        {note()}
      </p>
    </SettingsSection>
  );
}
