import { useNavigate } from '@solidjs/router';
import { Show, createSignal } from 'solid-js';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { connectionStateText } from '../../connectionText';
import { agentInfo, agentLine } from '../status/agentInfo';
import { useIris } from '../../../runtime';
import { ModalDialog } from '../shell/ModalDialog';
import { SettingsSection } from './SettingsSection';

/** The gateway this device is paired with: its address, the connection in words, re-pair, forget. */
export function GatewaySettings() {
  const { db, client } = useIris();
  const navigate = useNavigate();
  const url = live(() => getSetting(db, 'gatewayUrl'), undefined);
  const agent = live(async () => agentInfo(await getSetting(db, 'gatewayStatus')), undefined);
  const [confirming, setConfirming] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal('');

  const forget = async () => {
    setBusy(true);
    setError('');
    try {
      await client.forget();
      setConfirming(false);
      navigate('/pair', { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not forget the gateway. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection title="Gateway">
      <Show when={url()} fallback={<p class="settings-note">This device is not paired with a gateway.</p>}>
        <dl class="settings-facts">
          <div>
            <dt>Address</dt>
            <dd class="settings-url">{url()}</dd>
          </div>
          <div>
            <dt>Connection</dt>
            <dd classList={{ 'error-text': client.state() === 'auth-failed' }}>
              {connectionStateText(client.state(), client.lastError())}
            </dd>
          </div>
          <Show when={agent()}>
            {(a) => (
              <div>
                <dt>Agent</dt>
                <dd>
                  {agentLine(a())}
                  <Show when={a().problem}>
                    <span class="error-text"> — unavailable: {a().problem}</span>
                  </Show>
                </dd>
              </div>
            )}
          </Show>
        </dl>
      </Show>
      <div class="settings-actions">
        <button
          type="button"
          class="button secondary"
          onClick={() => navigate(url() ? `/pair?url=${encodeURIComponent(url()!)}` : '/pair')}
        >
          Re-pair
        </button>
        <Show when={url()}>
          <button type="button" class="button secondary danger-outline" onClick={() => setConfirming(true)}>
            Forget this gateway
          </button>
        </Show>
      </div>
      <ModalDialog open={confirming()} title="Forget this gateway?" onClose={() => setConfirming(false)}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void forget();
          }}
        >
          <p>
            This device disconnects and deletes everything it saved from the gateway: channels, messages, drafts and
            media. The gateway keeps your conversations; pair again to see them.
          </p>
          <Show when={error()}>
            <p class="error-text" role="alert">
              {error()}
            </p>
          </Show>
          <div class="modal-actions">
            <button type="button" class="button secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="submit" class="button danger" disabled={busy()}>
              Forget
            </button>
          </div>
        </form>
      </ModalDialog>
    </SettingsSection>
  );
}
