import { Show, createSignal } from 'solid-js';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { isLocalOnly, pairingLink } from '../../../lib/pairingLink';
import { QrCode } from './QrCode';
import { SettingsSection } from './SettingsSection';
import { copyText } from '../messages/copyText';

/**
 * Pair a phone from here: a QR code of the pairing link. The link holds the token, so it is drawn
 * only on request, stays on this screen (never sent anywhere) and is hidden again on leaving.
 */
export function PairDeviceSettings() {
  const { db } = useIris();
  const [shown, setShown] = createSignal(false);
  const [copied, setCopied] = createSignal('');
  const link = live(async () => {
    const [url, token] = await Promise.all([getSetting(db, 'gatewayUrl'), getSetting(db, 'token')]);
    return url && token ? pairingLink(location.href, url, token) : undefined;
  }, undefined);

  const copy = async () => {
    const value = link();
    if (!value) return;
    // With execCommand's fallback: the Clipboard API is missing on a plain-http page.
    setCopied((await copyText(value)) ? 'Pairing link copied.' : 'Could not copy. Scan the code instead.');
  };

  return (
    <Show when={link()}>
      <SettingsSection title="Pair another device">
        <p class="settings-note">
          Scan the code with your phone’s camera to open Iris there, already paired with this gateway.
        </p>
        <Show
          when={shown()}
          fallback={
            <div class="settings-actions">
              <button type="button" class="button secondary" onClick={() => setShown(true)}>
                Show pairing QR code
              </button>
            </div>
          }
        >
          <div class="pairing-qr">
            <QrCode text={link()!} label="QR code of the pairing link" />
            <p class="settings-warning">
              Anyone who scans this code can use your gateway. Show it only to your own devices.
            </p>
            <Show when={isLocalOnly(link()!)}>
              <p class="settings-warning">
                This address (localhost) works only on this computer. To pair a phone, open Iris here through this
                computer’s network address first.
              </p>
            </Show>
            <div class="settings-actions">
              <button type="button" class="button secondary" onClick={() => void copy()}>
                Copy pairing link
              </button>
              <button
                type="button"
                class="button secondary"
                onClick={() => {
                  setShown(false);
                  setCopied('');
                }}
              >
                Hide QR code
              </button>
            </div>
            <p class="settings-note" role="status">
              {copied()}
            </p>
          </div>
        </Show>
      </SettingsSection>
    </Show>
  );
}
