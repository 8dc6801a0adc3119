import { useNavigate, useSearchParams } from '@solidjs/router';
import { Show, createEffect, createSignal, on } from 'solid-js';
import { requestPersistentStorage } from '../../pwa/register';
import { loadSessionCode, normalizeGatewayUrl } from '../../client';
import { live } from '../../store/live';
import { channelsInOrder, listedDirectory } from '../../store/models/channels';
import { getSetting } from '../../store/models/settings';
import type { PendingPairing } from '../components/settings/ReplacePairingDialog';
import { useIris } from '../../runtime';
import { connectionStateText } from '../connectionText';
import { landingHref } from '../components/pairing/landing';
import { ScanPairingCode, canScanPairingCode } from '../components/pairing/ScanPairingCode';
import { watchPairingAttempt } from '../components/pairing/watchAttempt';
import { codeLoadProblem, isCodeLoadFailure } from '../components/pairing/problem';
import { lazyPage } from '../lazy/lazyPage';
import './PairPage.css';

// Asked only when a paired browser follows a pairing link: a new visitor's first load does without it
// (and its modal dialog's code). If its code cannot load, the card says so in its place, with "Try
// again", and the pairing stays as it is until the person has answered.
const ReplacePairingDialog = lazyPage(() =>
  import('../components/settings/ReplacePairingDialog').then((m) => m.ReplacePairingDialog),
);

/** The gateway this page was served with: same origin, path /ws. */
function sameOriginGatewayUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/** A command-line flag with its value (`--gateway ws://…`) in a sentence, set as code that never breaks. */
function withCommands(text: string) {
  return text
    .split(/(--[a-z-]+ [^\s]*[^\s.])/)
    .map((part, i) => (i % 2 ? <code class="pair-command">{part}</code> : part));
}

/**
 * Pair this browser with a gateway: by the pairing link (#/pair?url=…&token=…[&lane=…]), by
 * scanning its QR code, or by typing. Once connected it opens the link's lane or the default channel.
 */
export function PairPage() {
  const { db, client } = useIris();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const param = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  const [url, setUrl] = createSignal(param(params.url) || sameOriginGatewayUrl());
  const [token, setToken] = createSignal(param(params.token));
  const [lane, setLane] = createSignal(param(params.lane) || undefined);
  const [submitted, setSubmitted] = createSignal(false);
  const [reconnected, setReconnected] = createSignal(false);
  const [replacing, setReplacing] = createSignal<PendingPairing>();
  const channels = live(() => channelsInOrder(db), []);

  const attempt = watchPairingAttempt(client.state);
  const problem = attempt.problem;

  // What pairing refused before connecting at all (an address that is no gateway URL), in words.
  const [invalid, setInvalid] = createSignal<string>();

  // The connection's code is fetched as soon as the person starts on the form (not with the first
  // screen, which stays light: e2e/first-screen.spec.ts): Connect must not depend on the server still
  // answering later. A failed fetch here is harmless: the attempt loads it again and says why it failed.
  let sessionCodeAsked = false;
  const fetchSessionCode = () => {
    if (sessionCodeAsked) return;
    sessionCodeAsked = true;
    void loadSessionCode().catch(() => {
      sessionCodeAsked = false;
    });
  };

  async function connect() {
    // Re-pairing starts from a connection that is still up: only a connection made after this attempt counts.
    setReconnected(client.state() !== 'online');
    setSubmitted(true);
    setInvalid(undefined);
    attempt.begin(url().trim());
    try {
      await client.pair(url().trim(), token().trim());
    } catch (err) {
      // A chunk the server no longer serves is no fault of the address typed: say what is down.
      setInvalid(
        isCodeLoadFailure(err) ? codeLoadProblem(location.origin) : err instanceof Error ? err.message : String(err),
      );
    }
  }

  /**
   * The pairing this app has now, when the link would change it (so the person is asked first). A
   * pairing that never got a hello.ack (no server caps: a wrong token tried first) has nothing to lose.
   */
  async function pairingReplacedBy(linkUrl: string, linkToken: string): Promise<PendingPairing | undefined> {
    const [currentUrl, currentToken, caps] = await Promise.all([
      getSetting(db, 'gatewayUrl'),
      getSetting(db, 'token'),
      getSetting(db, 'serverCaps'),
    ]);
    if (!currentUrl || !currentToken || !caps) return undefined;
    let same: boolean;
    try {
      same = normalizeGatewayUrl(linkUrl) === currentUrl && linkToken === currentToken;
    } catch {
      same = false;
    }
    return same ? undefined : { url: linkUrl, token: linkToken, currentUrl };
  }

  // Pair from the link: on opening it, and when it is opened in this tab while the form shows (the
  // address changes, the page does not load again). Asks first if that replaces the current pairing,
  // and drops the token from the address bar and history at once.
  createEffect(
    on(
      [() => param(params.url), () => param(params.token), () => param(params.lane)],
      ([linkUrl, linkToken, linkLane]) => {
        if (!linkUrl || !linkToken) return;
        setUrl(linkUrl);
        setToken(linkToken);
        setLane(linkLane || undefined);
        navigate('/pair', { replace: true });
        // eslint-disable-next-line solid/reactivity -- runs once per link opened, not as a tracked read
        void pairingReplacedBy(linkUrl.trim(), linkToken.trim()).then((pending) =>
          pending ? setReplacing(pending) : void connect(),
        );
      },
    ),
  );

  function keepCurrentPairing() {
    setReplacing(undefined);
    navigate('/', { replace: true });
  }

  const online = () => client.state() === 'online';
  // Once paired, ask the browser to keep our storage: the history must stay readable offline.
  createEffect(on(online, (isOnline) => isOnline && submitted() && void requestPersistentStorage()));
  createEffect(on(client.state, (state) => state !== 'online' && submitted() && setReconnected(true)));
  // Then open the conversation, as after any sign-in: the link's lane, else the default channel.
  // A gateway that has listed no channel at all: the home page says so (where New channel is at hand).
  const knownEmpty = live(async () => {
    const { listed, channels: active } = await listedDirectory(db);
    return listed && active.length === 0;
  }, false);
  createEffect(() => {
    if (!online() || !submitted() || !reconnected()) return;
    const href = landingHref(channels(), lane()) ?? (knownEmpty() ? '/' : undefined);
    if (href) navigate(href, { replace: true });
  });

  return (
    <main class="pair">
      <div class="card pair-card">
        <img class="pair-mark" src={`${import.meta.env.BASE_URL}icons/icon.svg`} alt="" width="56" height="56" />
        <h1>Connect Iris to your gateway</h1>
        {/* Mounted (and its code loaded) only while asking. */}
        <Show when={replacing()}>
          <ReplacePairingDialog
            pending={replacing()}
            onConfirm={() => {
              setReplacing(undefined);
              void connect();
            }}
            onCancel={keepCurrentPairing}
          />
          {/* The way back when the question cannot be shown; behind the dialog (inert) while it is. */}
          <button type="button" class="button secondary" onClick={keepCurrentPairing}>
            Back to my conversations
          </button>
        </Show>
        {/* Not while asking: its fields hold the link's gateway and token, and Connect would pair without
            the answer (when the question's code could not load, say). */}
        <Show when={!replacing()}>
          <form
            class="pair-form"
            onFocusIn={fetchSessionCode}
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
            <p class="pair-help">
              The gateway prints its token and a pairing link when it starts (<code>npm start</code> does too).
            </p>
            {/* Disabled while an attempt is under way, unless it is known to be going nowhere: then fix and retry. */}
            <button
              class="button"
              type="submit"
              disabled={(client.state() === 'connecting' || client.state() === 'pairing') && problem() === undefined}
            >
              Connect
            </button>
          </form>
          <Show when={canScanPairingCode()}>
            <ScanPairingCode
              onScanned={(fields) => {
                setUrl(fields.url);
                setToken(fields.token);
                setLane(fields.lane);
              }}
            />
          </Show>
        </Show>
        <Show when={submitted() || online()}>
          <p
            role="status"
            class="pair-status"
            classList={{
              'error-text': client.state() === 'auth-failed' || problem() !== undefined || invalid() !== undefined,
              'pair-problem': problem() !== undefined || invalid() !== undefined,
            }}
          >
            {invalid() ??
              (problem() ? withCommands(problem()!) : connectionStateText(client.state(), client.lastError()))}
          </p>
        </Show>
      </div>
    </main>
  );
}
