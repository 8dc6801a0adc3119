import { AboutSettings } from '../components/settings/AboutSettings';
import { AppearanceSettings } from '../components/settings/AppearanceSettings';
import { DeviceSettings } from '../components/settings/DeviceSettings';
import { GatewaySettings } from '../components/settings/GatewaySettings';
import { PairDeviceSettings } from '../components/settings/PairDeviceSettings';
import { NotificationSettings } from '../components/notifications/NotificationSettings';
import { MediaCacheSettings } from '../components/media/MediaCacheSettings';
import { AppSettings } from '../components/pwa/AppSettings';
import './SettingsPage.css';

/** Settings: one section per concern; later issues add Notifications and Storage sections here. */
export default function SettingsPage() {
  return (
    <main class="settings-page">
      <div class="settings-column">
        <GatewaySettings />
        <DeviceSettings />
        <NotificationSettings />
        <MediaCacheSettings />
        <AppearanceSettings />
        <PairDeviceSettings />
        <AppSettings />
        <AboutSettings />
      </div>
    </main>
  );
}
