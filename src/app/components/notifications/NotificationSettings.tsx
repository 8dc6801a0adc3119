import { Show, createSignal, createUniqueId, onCleanup, onMount } from 'solid-js';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { gatewayCannotWake } from '../../../push/gatewayWake';
import { getPushRegistration } from '../../../push/registration';
import { disablePush, enablePush, pushSupported, sendTestNotification, type PushStatus } from '../../../push/subscribe';
import { useIris } from '../../../runtime';
import { httpsAdvice, needsHttps } from '../../../pwa/secureContext';
import { SettingsSection } from '../settings/SettingsSection';
import './NotificationSettings.css';

const STATUS_WORDS: Record<PushStatus, string> = {
  on: 'On',
  off: 'Off',
  blocked: 'Blocked in browser settings',
  unsupported: 'Not supported in this browser',
};

function currentPermission(): NotificationPermission | 'unsupported' {
  return pushSupported() ? Notification.permission : 'unsupported';
}

/** Settings → Notifications: the switch (permission is asked only when it is turned on), the state in words, a test. */
export function NotificationSettings() {
  const { db, client } = useIris();
  const switchId = createUniqueId();
  const hintId = createUniqueId();
  const registration = live(() => getPushRegistration(db), undefined);
  // A gateway that pushes only through FCM, or not at all, cannot wake a browser: say so, offer no switch to turn on.
  const cannotWake = live(async () => gatewayCannotWake(await getSetting(db, 'serverCaps')), undefined);
  const [permission, setPermission] = createSignal(currentPermission());
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal('');
  const [note, setNote] = createSignal('');

  // Permission can change in the browser's site settings while this page is open.
  onMount(() => {
    if (!pushSupported() || !navigator.permissions?.query) return;
    let status: PermissionStatus | undefined;
    const update = () => setPermission(currentPermission());
    void navigator.permissions
      .query({ name: 'notifications' })
      .then((s) => {
        status = s;
        s.addEventListener('change', update);
      })
      .catch(() => undefined); // no permission events here: the state shown is read on each visit
    onCleanup(() => status?.removeEventListener('change', update));
  });

  const status = (): PushStatus => {
    const p = permission();
    if (p === 'unsupported') return 'unsupported';
    if (p === 'denied') return 'blocked';
    return p === 'granted' && registration() ? 'on' : 'off';
  };

  const deps = { db, register: (payload: Parameters<typeof client.registerPush>[0]) => client.registerPush(payload) };

  const toggle = async (on: boolean) => {
    setBusy(true);
    setError('');
    setNote('');
    try {
      if (on) {
        const { gatewayTold } = await enablePush(deps);
        if (!gatewayTold) setNote('The gateway is told when this device connects again.');
      } else {
        const { gatewayTold } = await disablePush(deps);
        if (!gatewayTold) setNote('Turned off here; the gateway is told when this device connects again.');
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Notifications could not be changed. Try again.');
    } finally {
      setPermission(currentPermission());
      setBusy(false);
    }
  };

  const test = async () => {
    setError('');
    setNote('');
    try {
      await sendTestNotification();
      setNote('Test notification sent.');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The test notification could not be shown.');
    }
  };

  return (
    <SettingsSection title="Notifications">
      {/* The section's heading names the switch: "Notifications" once on screen. A tap on the words toggles it too. */}
      <label class="notification-switch" for={switchId}>
        <span id={hintId} class="notification-switch-text settings-choice-hint">
          Replies, reminders and questions that need you, even when Iris is closed.
        </span>
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          class="notification-switch-input"
          aria-label="Notifications"
          aria-describedby={hintId}
          checked={status() === 'on'}
          disabled={
            busy() ||
            status() === 'unsupported' ||
            status() === 'blocked' ||
            (cannotWake() !== undefined && status() !== 'on')
          }
          onChange={(e) => {
            const wanted = e.currentTarget.checked;
            // The switch follows the real state, not the click: it turns on only once it worked.
            e.currentTarget.checked = status() === 'on';
            void toggle(wanted);
          }}
        />
      </label>
      <dl class="settings-facts">
        <div>
          <dt>Status</dt>
          <dd data-testid="notification-status">
            {busy() ? 'Changing…' : status() === 'unsupported' && needsHttps() ? 'Needs HTTPS' : STATUS_WORDS[status()]}
          </dd>
        </div>
        <Show when={status() === 'on' && registration()}>
          {(r) => (
            <div>
              <dt>Delivered by</dt>
              <dd>
                {r().mode === 'ntfy'
                  ? 'This server’s ntfy relay (the gateway publishes to ntfy)'
                  : 'The gateway, through the browser’s push service'}
              </dd>
            </div>
          )}
        </Show>
      </dl>
      <Show when={status() === 'unsupported' && needsHttps()}>
        <p class="settings-note" data-testid="needs-https">
          {httpsAdvice()}
        </p>
      </Show>
      <Show when={cannotWake()}>
        {(why) => (
          <p class="settings-note" data-testid="push-cannot-wake">
            {why()}
          </p>
        )}
      </Show>
      {/* Once turning them on has failed, its error says this already (in red, below). */}
      <Show when={status() === 'blocked' && !error()}>
        <p class="settings-note">
          Allow notifications for this site in the browser’s settings, then turn them on here.
        </p>
      </Show>
      <Show when={error()}>
        <p class="error-text" role="alert">
          {error()}
        </p>
      </Show>
      <p class="settings-note" role="status">
        {note()}
      </p>
      <div class="settings-actions">
        <button type="button" class="button secondary" disabled={status() !== 'on'} onClick={() => void test()}>
          Send test notification
        </button>
      </div>
    </SettingsSection>
  );
}
