import { createSignal, onMount } from 'solid-js';
import { defaultDeviceName } from '../../../net/deviceName';
import { getSetting, setSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { SettingsSection } from './SettingsSection';
import { textDirection } from '../../../lib/textDirection';

const MAX_NAME = 60;

/** This device's name, as the gateway and the user's other devices see it. */
export function DeviceSettings() {
  const { db, client } = useIris();
  const [name, setName] = createSignal('');
  const [saved, setSaved] = createSignal('');
  const [status, setStatus] = createSignal('');

  onMount(() => {
    void getSetting(db, 'deviceName').then((value) => {
      const stored = value ?? defaultDeviceName();
      setName(stored);
      setSaved(stored);
    });
  });

  const save = async () => {
    const value = name().trim().slice(0, MAX_NAME) || defaultDeviceName();
    setName(value);
    if (value === saved()) return;
    await setSetting(db, 'deviceName', value);
    setSaved(value);
    setStatus('Saved.');
    // The name travels in `hello`: reconnect so the gateway learns it now rather than next time.
    const [url, token] = await Promise.all([getSetting(db, 'gatewayUrl'), getSetting(db, 'token')]);
    if (url && token && client.state() === 'online')
      void client
        .pair(url, token)
        .catch((err: unknown) =>
          console.warn('iris: could not reconnect with the new name (the next hello carries it)', err),
        );
  };

  return (
    <SettingsSection title="This device">
      <form
        class="settings-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label class="field">
          <span>Device name</span>
          <input
            name="deviceName"
            dir={textDirection(name())}
            autocomplete="off"
            maxlength={MAX_NAME}
            value={name()}
            onInput={(e) => {
              setName(e.currentTarget.value);
              setStatus('');
            }}
            onBlur={() => void save()}
          />
        </label>
        <button type="submit" class="button secondary" disabled={name().trim() === saved()}>
          Save
        </button>
      </form>
      <p class="settings-note" role="status">
        {status()}
      </p>
    </SettingsSection>
  );
}
