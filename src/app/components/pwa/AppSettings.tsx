import { Show, createResource, onCleanup } from 'solid-js';
import { InstallButton } from './InstallButton';
import { canInstall } from '../../../pwa/install';
import { needsHttps } from '../../../pwa/secureContext';
import { formatBytes } from '../../formatBytes';
import { SettingsSection } from '../settings/SettingsSection';

interface StorageFacts {
  usage?: number;
  quota?: number;
  persisted?: boolean;
}

async function storageFacts(): Promise<StorageFacts> {
  const storage = navigator.storage;
  if (!storage?.estimate) return {};
  const [estimate, persisted] = await Promise.all([
    storage.estimate(),
    storage.persisted?.() ?? Promise.resolve(false),
  ]);
  return { usage: estimate.usage, quota: estimate.quota, persisted };
}

/** Settings → App: install, and how much this device stores for Iris. */
export function AppSettings() {
  const [facts, { refetch }] = createResource(storageFacts);
  const timer = setInterval(() => void refetch(), 10_000);
  onCleanup(() => clearInterval(timer));
  return (
    <SettingsSection title="App">
      <Show when={canInstall()}>
        <p>Install Iris to open it from your home screen, like any other app.</p>
        <InstallButton />
      </Show>
      {/* Notifications (above) say why and what to do; here, what it means for this section. */}
      <Show when={needsHttps()}>
        <p class="settings-note">Installing and reading offline need an https:// address too.</p>
      </Show>
      <dl class="settings-facts">
        <div>
          <dt>Storage used</dt>
          <dd>
            <Show when={facts()?.usage !== undefined} fallback="Not reported by this browser">
              {formatBytes(facts()!.usage!)} of {formatBytes(facts()!.quota ?? 0)}
            </Show>
          </dd>
        </div>
        <div>
          <dt>Kept when space runs low</dt>
          <dd>
            {facts()?.persisted
              ? 'Yes (persistent storage granted)'
              : 'No (the browser may clear it when space runs low)'}
          </dd>
        </div>
      </dl>
    </SettingsSection>
  );
}
