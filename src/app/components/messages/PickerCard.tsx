import { Show } from 'solid-js';
import { live } from '../../../store/live';
import { getPicker } from '../../../store/models/pickers';
import { useIris } from '../../../runtime';
import { pickerOutcome } from '../pickers/pickerText';
import { useAgentName } from './useAgentName';

/**
 * A question the agent asked, left in the conversation once answered ("Approval: make deploy --prod →
 * Approved once") or closed without an answer from here ("… → Closed").
 */
export function PickerCard(props: { pickerId: string }) {
  const { db } = useIris();
  // eslint-disable-next-line solid/reactivity -- one card per picker key (For over keys): the id is fixed for the card's life
  const picker = live(() => getPicker(db, props.pickerId));
  const agent = useAgentName();
  return (
    <Show when={picker()} fallback={<div class="msg-placeholder" aria-hidden="true" />}>
      {(row) => {
        const outcome = () => pickerOutcome(row(), agent());
        return (
          <div class="picker-card" role="note" aria-label={`${outcome().question} → ${outcome().answer}`}>
            <span class="picker-card-question" dir="auto">
              {outcome().question}
            </span>
            <span class="picker-card-arrow" aria-hidden="true">
              →
            </span>
            <span class="picker-card-answer" dir="auto" classList={{ closed: row().state === 'closed' }}>
              {outcome().answer}
            </span>
          </div>
        );
      }}
    </Show>
  );
}
