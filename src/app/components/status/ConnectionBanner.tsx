import { A } from '@solidjs/router';
import { Show, createEffect, createSignal, onCleanup, untrack } from 'solid-js';
import { live } from '../../../store/live';
import { getSetting, rawSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { agentInfo } from './agentInfo';
import { bannerMessage, gatewayHealth, type BannerMessage } from './connectionBannerText';
import './ConnectionBanner.css';

/** Short drops (a reconnect that succeeds at once, the first connect) are not worth a banner. */
const SETTLE_MS = 1000;
/**
 * The page's first connect may take longer on a phone's network (loading the session's code, the
 * socket's handshakes): a banner that comes and goes then moves the whole page under it. Once an
 * attempt has ended (online, refused, failed), SETTLE_MS applies again.
 */
const FIRST_CONNECT_MS = 4000;

/** The bar under the top bar that says when the app is offline, reconnecting, unpaired, or the gateway is unwell. */
export function ConnectionBanner() {
  const { db, client } = useIris();
  const status = live(() => rawSetting(db, 'gatewayStatus'), undefined);
  const health = () => gatewayHealth(status());
  // An app that is not paired is not "offline": it has nowhere to connect (the settings say so).
  const paired = live(async () => !!(await getSetting(db, 'token')), false);
  const [shown, setShown] = createSignal<BannerMessage | undefined>();
  let triedToConnect = false;
  let firstAttemptEnded = false;
  /** When the connection last stopped being fine: the wait counts from then, not from each new attempt. */
  let troubleSince: number | undefined;

  createEffect(() => {
    const state = client.state();
    if (state === 'connecting') triedToConnect = true;
    if (state === 'online' || state === 'auth-failed' || (state === 'offline' && triedToConnect))
      firstAttemptEnded = true;
    const next = paired()
      ? bannerMessage(state, health(), agentInfo(status())?.problem, client.catchUp?.(), client.syncUnanswered?.())
      : undefined;
    if (!next || next.tone === 'danger' || state === 'online') {
      troubleSince = undefined;
      setShown(next);
      return;
    }
    // Reconnect attempts flip offline and reconnecting faster than SETTLE_MS while the network is gone:
    // restarting the wait at each flip kept the banner away for seconds. A banner already up changes its
    // words at once.
    troubleSince ??= Date.now();
    const wait = (firstAttemptEnded ? SETTLE_MS : FIRST_CONNECT_MS) - (Date.now() - troubleSince);
    if (untrack(shown) || wait <= 0) {
      setShown(next);
      return;
    }
    const timer = setTimeout(() => setShown(next), wait);
    onCleanup(() => clearTimeout(timer));
  });

  return (
    <div class="connection-banner-slot" role="status" aria-live="polite">
      <Show when={shown()}>
        {(message) => (
          <div class={`connection-banner ${message().tone}`}>
            <span>{message().text}</span>
            <Show when={message().retry}>
              <button type="button" class="connection-banner-action" onClick={() => client.retryNow()}>
                Try now
              </button>
            </Show>
            <Show when={message().repair}>
              <A class="connection-banner-action" href="/pair">
                Pair again
              </A>
            </Show>
          </div>
        )}
      </Show>
    </div>
  );
}
