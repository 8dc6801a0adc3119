import { SettingsSection } from './SettingsSection';

const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'development';

export function AboutSettings() {
  return (
    <SettingsSection title="About">
      <dl class="settings-facts">
        <div>
          <dt>Iris Web</dt>
          <dd>Version {VERSION}</dd>
        </div>
      </dl>
    </SettingsSection>
  );
}
