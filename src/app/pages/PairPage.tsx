import { useNavigate, useSearchParams } from '@solidjs/router';
import { For, Show, createEffect, createSignal, on, onMount } from 'solid-js';
import { requestPersistentStorage } from '../../pwa/register';
import { normalizeGatewayUrl } from '../../client';
import { live } from '../../store/live';
import { getSetting } from '../../store/models/settings';
import { ReplacePairingDialog, type PendingPairing } from '../components/settings/ReplacePairingDialog';
import { iris, sameOriginGatewayUrl } from '../context';
import { connectionStateText } from '../connectionText';
import './PairPage.css';

/** Pair this browser with a gateway: by the pairing link (#/pair?url=…&token=…) or by typing. */
export function PairPage() {
  const { db, client } = iris();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const param = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  const [url, setUrl] = createSignal(param(params.url) || sameOriginGatewayUrl());
  const [token, setToken] = createSignal(param(params.token));
  const [submitted, setSubmitted] = createSignal(false);
  const [replacing, setReplacing] = createSignal<PendingPairing>();
  const channels = live(() => db.channels.orderBy('order').toArray(), []);

  async function connect() {
    setSubmitted(true);
    await client.pair(url().trim(), token().trim());
  }

  /**
   * The pairing this app has now, when the link would change it (so the person is asked first). A
   * pairing that never got a hello.ack (no server caps: a wrong token tried first) has nothing to lose.
   */
  async function pairingReplacedBy(linkUrl: string, linkToken: string): Promise<PendingPairing | undefined> {
    const [currentUrl, currentToken, caps] = await Promise.all([getSetting(db, 'gatewayUrl'), getSetting(db, 'token'), getSetting(db, 'serverCaps')]);
    if (!currentUrl || !currentToken || !caps) return undefined;
    let same = false;
    try {
      same = normalizeGatewayUrl(linkUrl) === currentUrl && linkToken === currentToken;
    } catch {
      same = false;
    }
    return same ? undefined : { url: linkUrl, token: linkToken, currentUrl };
  }

  onMount(() => {
    if (param(params.url) && param(params.token)) {
      // Pair from the link (asking first if that replaces the current pairing), and drop the token
      // from the address bar and history at once.
      const [linkUrl, linkToken] = [url().trim(), token().trim()];
      navigate('/pair', { replace: true });
      void pairingReplacedBy(linkUrl, linkToken).then((pending) => (pending ? setReplacing(pending) : void connect()));
    }
  });

  const online = () => client.state() === 'online';
  // Once paired, ask the browser to keep our storage: the history must stay readable offline.
  createEffect(on(online, (isOnline) => isOnline && submitted() && void requestPersistentStorage()));
  return (
    <main class="pair">
      <div class="card pair-card">
        <h1>Connect to your Hermes gateway</h1>
        <ReplacePairingDialog
          pending={replacing()}
          onConfirm={() => {
            setReplacing(undefined);
            void connect();
          }}
          onCancel={() => {
            setReplacing(undefined);
            navigate('/', { replace: true });
          }}
        />
        <form
          class="pair-form"
          onSubmit={(e) => {
            e.preventDefault();
            void connect();
          }}
        >
          <label class="field">
            <span>Gateway URL</span>
            <input
              name="url"
              type="url"
              inputmode="url"
              autocomplete="off"
              required
              value={url()}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          </label>
          <label class="field">
            <span>Token</span>
            <input
              name="token"
              type="password"
              autocomplete="off"
              required
              value={token()}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          </label>
          <button class="button" type="submit" disabled={client.state() === 'connecting' || client.state() === 'pairing'}>
            Connect
          </button>
        </form>
        <Show when={submitted() || online()}>
          <p
            role="status"
            class="pair-status"
            classList={{ 'error-text': client.state() === 'auth-failed' }}
          >
            {connectionStateText(client.state(), client.lastError())}
          </p>
        </Show>
        <Show when={online() && channels().length > 0}>
          <h2 id="pair-channels">Your channels</h2>
          <ul class="pair-channels" aria-labelledby="pair-channels">
            <For each={channels().filter((c) => !c.archived)}>
              {(channel) => (
                <li>
                  <a href={`#/c/${encodeURIComponent(channel.chat_id)}`}>{channel.name}</a>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </div>
    </main>
  );
}
