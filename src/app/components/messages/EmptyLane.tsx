import { For, Show, createSignal } from 'solid-js';
import type { CommandInfo } from '../../../protocol';
import { live } from '../../../store/live';
import { getSetting } from '../../../store/models/settings';
import { useIris } from '../../../runtime';
import { cleanCommands, commandText } from '../composer/slash';
import { showErrorToast } from '../status/toastWrites';
import { useMessageList } from './listContext';

/** Commands that need nothing typed after them (no hint, or only an optional `[…]` one). */
function readyToRun(command: CommandInfo): boolean {
  const hint = (command.args_hint ?? '').trim();
  return hint === '' || /^\[.*\]$/.test(hint);
}

/** Three starts from the gateway's own catalog, in its order. */
function suggestedCommands(list: readonly unknown[]): CommandInfo[] {
  return cleanCommands(list).filter(readyToRun).slice(0, 3);
}

/** A conversation with nothing in it yet: who answers, three ways to start, and where the commands are. */
export function EmptyLane(props: { lane: string }) {
  const { db, client } = useIris();
  const catalog = live(() => getSetting(db, 'commands'), undefined);
  const suggestions = () => suggestedCommands(catalog() ?? []);
  const [sending, setSending] = createSignal(false);
  const list = useMessageList();
  const run = async (command: CommandInfo) => {
    setSending(true);
    try {
      await client.send(props.lane, commandText(command));
    } catch (error) {
      showErrorToast(db, 'Could not send that', error);
    } finally {
      setSending(false);
    }
  };
  return (
    <section class="lane-empty" aria-labelledby="lane-empty-title">
      <h3 id="lane-empty-title" class="lane-empty-title">
        {list.agentName()} is here
      </h3>
      <p class="lane-empty-text">Ask anything{suggestions().length ? ', or start with one of these:' : '.'}</p>
      <Show when={suggestions().length}>
        <ul class="lane-empty-suggestions">
          <For each={suggestions()}>
            {(command) => (
              <li>
                <button
                  type="button"
                  class="lane-empty-suggestion"
                  disabled={sending()}
                  onClick={() => void run(command)}
                >
                  <span class="lane-empty-command">{commandText(command)}</span>
                  <Show when={command.description}>
                    <span class="lane-empty-description">{command.description}</span>
                  </Show>
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p class="lane-empty-hint">
        Type <kbd>/</kbd> in the message box to see every command.
      </p>
    </section>
  );
}
