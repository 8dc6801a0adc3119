import { For, Show, createMemo, createSignal, untrack } from 'solid-js';
import { live } from '../../../store/live';
import { openPickers } from '../../../store/models/pickers';
import { useIris } from '../../../runtime';
import { lazyPart } from '../../lazy/lazyPart';
import { useAgentName } from '../messages/useAgentName';
import { pickerTitle } from './pickerText';
import './Pickers.css';

// The dialog and its kinds of question load when the agent first asks one, not with every lane.
// One that cannot be loaded is dismissed: its chip stays, and opens (loads) it again.
const PickerDialog = lazyPart(() => import('./PickerDialog').then((m) => m.PickerDialog), {
  title: 'Could not open that',
  onUnavailable: (shown) => shown.onDismiss(),
});

/**
 * The agent's open questions in a lane. The oldest open picker shows as a dialog; one closed without
 * an answer waits behind a "Pending question" chip. Pickers live in the DB, so after a reload an
 * unanswered one opens again.
 */
export function PickerHost(props: { lane: string }) {
  return (
    <Show when={props.lane} keyed>
      {(lane) => <LanePickers lane={lane} />}
    </Show>
  );
}

function LanePickers(props: { lane: string }) {
  const { db } = useIris();
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const lane = props.lane;
  const pickers = live(() => openPickers(db, lane), []);
  const agent = useAgentName();
  const [dismissed, setDismissed] = createSignal<ReadonlySet<string>>(new Set());
  const shownId = createMemo(() => pickers().find((p) => !dismissed().has(p.picker_id))?.picker_id);
  const waiting = () => pickers().filter((p) => dismissed().has(p.picker_id));

  const dismiss = (id: string) => setDismissed((prev) => new Set(prev).add(id));
  const reopen = (id: string) =>
    setDismissed((prev) => {
      const next = new Set(prev);
      next.delete(id);
      return next;
    });

  const reopenAll = () => setDismissed(new Set<string>());

  return (
    <>
      <Show when={!shownId() && waiting().length > 0}>
        <div class="picker-chips">
          <Show
            when={waiting().length > 1}
            fallback={
              <For each={waiting()}>
                {(picker) => (
                  <button type="button" class="picker-chip" onClick={() => reopen(picker.picker_id)}>
                    <span class="picker-chip-dot" aria-hidden="true" />
                    <span class="picker-chip-label">Pending question</span>
                    <span class="picker-chip-title" dir="auto">
                      {pickerTitle(picker, agent())}
                    </span>
                  </button>
                )}
              </For>
            }
          >
            {/* Several: one chip, not a stack of them over the conversation. They open oldest first,
                each closed one leading to the next. */}
            <button type="button" class="picker-chip" onClick={reopenAll}>
              <span class="picker-chip-dot" aria-hidden="true" />
              <span class="picker-chip-label">{waiting().length} pending questions</span>
            </button>
          </Show>
        </div>
      </Show>
      <Show when={shownId()} keyed>
        {(id) => {
          // The row of a picker does not change while it is open; read it once for this dialog.
          const picker = untrack(() => pickers().find((p) => p.picker_id === id));
          return <Show when={picker}>{(row) => <PickerDialog picker={row()} onDismiss={() => dismiss(id)} />}</Show>;
        }}
      </Show>
    </>
  );
}
