import { A, useSearchParams } from '@solidjs/router';
import { For, Show, createEffect, createMemo, createSignal, on, onCleanup, onMount } from 'solid-js';
import type { SearchScope } from '../../protocol';
import { startLocalIndex } from '../../search/appIndex';
import { fromGatewayHit, fromLocalRow, laneLabel, resultPath, type SearchResultItem } from '../../search/results';
import { live } from '../../store/live';
import { channelsInOrder } from '../../store/models/channels';
import { getMessages } from '../../store/models/messages';
import { useIris } from '../../runtime';
import { formatFull, isoTime, shortWhen } from '../components/messages/time';
import { useToday } from '../components/messages/today';
import { Icon } from '../components/shell/Icon';
import './SearchPage.css';
import { textDirection } from '../../lib/textDirection';

const LIMIT = 50;
const DEBOUNCE_MS = 250;

type Source = 'gateway' | 'local' | 'local-fallback';

interface Outcome {
  query: string;
  items: SearchResultItem[];
  source: Source;
  error?: string;
}

function param(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/**
 * `/search?q=…&scope=all|chat&lane=…`: the gateway searches while online; offline (or if the gateway
 * cannot) the messages cached on this device are searched by the local index. The query lives in the
 * address so going back from a result shows the same results.
 */
export default function SearchPage() {
  const iris = useIris();
  const { db, client } = iris;
  const localIndex = iris.shared(startLocalIndex);
  const [params, setParams] = useSearchParams();
  const lane = () => param(params.lane) || undefined;
  const [query, setQuery] = createSignal(param(params.q));
  const today = useToday();
  const scope = (): SearchScope => (param(params.scope) === 'chat' && lane() ? 'chat' : 'all');
  const online = () => client.state() === 'online';

  const channels = live(() => channelsInOrder(db), []);
  const byId = createMemo(() => new Map(channels().map((c) => [c.chat_id, c])));
  const laneName = () => {
    const current = lane();
    return current ? laneLabel(byId(), current) : '';
  };

  const [outcome, setOutcome] = createSignal<Outcome | undefined>();
  const [searching, setSearching] = createSignal(false);
  let run = 0;

  async function search(text: string, where: SearchScope, inLane: string | undefined, useGateway: boolean) {
    const request = ++run;
    const trimmed = text.trim();
    if (trimmed === '') {
      setOutcome(undefined);
      setSearching(false);
      return;
    }
    setSearching(true);
    const localSearch = async (source: Source, error?: string): Promise<Outcome> => {
      const found = await localIndex.search(trimmed, { lane: where === 'chat' ? inLane : undefined, limit: LIMIT });
      return { query: trimmed, items: found.map((r) => fromLocalRow(r.row, trimmed)), source, ...(error && { error }) };
    };
    let result: Outcome;
    try {
      if (useGateway) {
        try {
          const hits = (await client.search(trimmed, where, where === 'chat' ? inLane : undefined)).slice(0, LIMIT);
          // A hit this device has cached gets its snippet from the whole message, not the gateway's window.
          const cached = await getMessages(
            db,
            hits.map((h) => h.message_id),
          ).catch(() => []); // the gateway's snippets stand in
          const items = hits.map((h, i) => {
            const row = cached[i];
            return row && row.text !== ''
              ? { ...fromLocalRow(row, trimmed), ts: fromGatewayHit(h, trimmed).ts || row.ts }
              : fromGatewayHit(h, trimmed);
          });
          result = { query: trimmed, items, source: 'gateway' };
        } catch (e) {
          const reason = e instanceof Error && e.message ? e.message : 'The gateway could not search.';
          result = await localSearch('local-fallback', reason);
        }
      } else {
        result = await localSearch('local');
      }
    } catch (e) {
      result = { query: trimmed, items: [], source: 'local', error: e instanceof Error ? e.message : 'Search failed.' };
    }
    if (request !== run) return;
    setOutcome(result);
    setSearching(false);
  }

  // Search as the user types (after a pause), and again when the scope or the connection changes.
  let timer: ReturnType<typeof setTimeout> | undefined;
  createEffect(
    on([query, scope, lane, online], ([text, where, inLane, isOnline], previous) => {
      if (timer !== undefined) clearTimeout(timer);
      const typed = previous !== undefined && previous[0] !== text;
      const go = () => void search(text, where, inLane, isOnline);
      if (typed) timer = setTimeout(go, DEBOUNCE_MS);
      else go();
    }),
  );
  onCleanup(() => timer !== undefined && clearTimeout(timer));

  let input!: HTMLInputElement;
  // Opening search means typing a query (autofocus does not apply to elements added after load).
  onMount(() => input.focus());

  function setScope(next: SearchScope) {
    setParams({ scope: next === 'chat' ? 'chat' : undefined }, { replace: true });
  }

  const statusText = () => {
    const o = outcome();
    if (query().trim() === '') return 'Type to search your messages.';
    if (searching() && !o) return 'Searching…';
    if (!o) return '';
    const count = o.items.length;
    const found =
      count === 0
        ? 'No messages match.'
        : count === 1
          ? '1 message found.'
          : `${count} messages found${count === LIMIT ? ' (the most relevant shown)' : ''}.`;
    return found;
  };

  const sourceNote = () => {
    const o = outcome();
    if (!o || query().trim() === '') return '';
    const partial = localIndex.built() ? '' : ' Still reading the saved messages, so some may be missing.';
    if (o.source === 'local') return `Offline: searching the messages saved on this device.${partial}`;
    if (o.source === 'local-fallback')
      return `${o.error ?? 'The gateway could not search.'} Showing messages saved on this device.${partial}`;
    return '';
  };

  return (
    <main class="search-page" aria-labelledby="search-heading">
      <div class="search-column">
        <h2 id="search-heading" class="visually-hidden">
          Search messages
        </h2>
        <form
          class="search-form"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (timer !== undefined) clearTimeout(timer);
            void search(query(), scope(), lane(), online());
          }}
        >
          <div class="search-field">
            <input
              ref={input}
              class="search-input"
              type="search"
              name="q"
              dir={textDirection(query())}
              aria-label="Search messages"
              placeholder="Search messages"
              autocomplete="off"
              enterkeyhint="search"
              value={query()}
              onInput={(e) => {
                setQuery(e.currentTarget.value);
                setParams({ q: e.currentTarget.value || undefined }, { replace: true });
              }}
            />
            {/* The app's own clear button (the browser's is a heavy blue cross unlike every other icon). */}
            <Show when={query()}>
              <button
                type="button"
                class="icon-button search-clear"
                aria-label="Clear search"
                onClick={() => {
                  setQuery('');
                  setParams({ q: undefined }, { replace: true });
                  input.focus();
                }}
              >
                <Icon name="close" />
              </button>
            </Show>
          </div>
          <fieldset class="search-scope">
            <legend class="visually-hidden">Where to search</legend>
            <label class="search-scope-option">
              <input
                type="radio"
                name="scope"
                value="all"
                checked={scope() === 'all'}
                onChange={() => setScope('all')}
              />
              <span>All chats</span>
            </label>
            <label class="search-scope-option" classList={{ unavailable: !lane() }}>
              <input
                type="radio"
                name="scope"
                value="chat"
                disabled={!lane()}
                checked={scope() === 'chat'}
                onChange={() => setScope('chat')}
              />
              <span>
                This chat
                <Show when={lane()}>
                  <span class="search-scope-lane"> ({laneName()})</span>
                </Show>
              </span>
            </label>
          </fieldset>
        </form>

        <p class="search-status" role="status">
          {statusText()}
        </p>
        <Show when={sourceNote()}>
          <p class="search-note">{sourceNote()}</p>
        </Show>

        <Show when={outcome()?.items.length}>
          <ol class="search-results" aria-label="Results" aria-busy={searching()}>
            <For each={outcome()!.items}>
              {(item) => (
                <li>
                  <A class="search-hit" href={resultPath(item)}>
                    <span class="search-hit-meta">
                      <span class="search-hit-lane">{laneLabel(byId(), item.lane)}</span>
                      <Show when={item.ts > 0}>
                        <time datetime={isoTime(item.ts)} title={formatFull(item.ts)}>
                          {shortWhen(item.ts, today())}
                        </time>
                      </Show>
                    </span>
                    <span class="search-hit-snippet" dir={textDirection(item.parts.map((part) => part.text).join(''))}>
                      <Show when={item.role === 'user'}>
                        {/* Its own direction, so "You:" stays one piece at the start of a Hebrew hit. */}
                        <span class="search-hit-role" dir="ltr">
                          You:
                        </span>{' '}
                      </Show>
                      <For each={item.parts}>{(part) => (part.mark ? <mark>{part.text}</mark> : part.text)}</For>
                    </span>
                  </A>
                </li>
              )}
            </For>
          </ol>
        </Show>
      </div>
    </main>
  );
}
