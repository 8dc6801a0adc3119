import { Match, Show, Switch, createSignal, onCleanup } from 'solid-js';
import type {
  PickerApprovalFrame,
  PickerChoiceFrame,
  PickerClarifyFrame,
  PickerConfirmFrame,
  PickerModelFrame,
} from '../../../protocol';
import type { PickerRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { showErrorToast } from '../status/toastWrites';
import { ModalDialog } from '../shell/ModalDialog';
import { ApprovalPicker, ChoicePicker, ClarifyPicker, ConfirmPicker, ModelPicker } from './PickerKinds';
import { useAgentName } from '../messages/useAgentName';
import { pickerTitle } from './pickerText';

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The answer was not sent. Try again.';
}

/**
 * One open picker as a modal dialog named by its title. Answered once: the controls lock while the
 * answer goes out and the dialog closes when it is recorded; if it could not be sent (offline) the
 * picker stays open and answerable. Escape or "Not now" closes it unanswered.
 */
export function PickerDialog(props: { picker: PickerRow; onDismiss: () => void }) {
  const { db, client } = useIris();
  const agent = useAgentName();
  let disposed = false;
  onCleanup(() => (disposed = true));
  const [answering, setAnswering] = createSignal(false);
  const [answered, setAnswered] = createSignal(false);
  const [error, setError] = createSignal('');
  const locked = () => answering() || answered();

  async function answer(value: string) {
    if (locked()) return;
    setAnswering(true);
    setError('');
    try {
      await client.selectPicker(props.picker.picker_id, value);
      setAnswered(true);
    } catch (e) {
      // The dialog closes as soon as the answer is recorded; a refusal that comes after is a toast
      // (once), in the gateway's own words when it gave any (ProtocolError's message).
      if (disposed) showErrorToast(db, 'Your answer was not taken', e);
      else setError(errorText(e));
    } finally {
      setAnswering(false);
    }
  }

  const payload = <T,>() => props.picker.payload as T;
  return (
    <ModalDialog
      open={!answered()}
      title={pickerTitle(props.picker, agent())}
      onClose={() => props.onDismiss()}
      class="picker-dialog"
    >
      {/* Focus lands here rather than on an answer, so a stray Enter answers nothing. */}
      <div class="picker-body" tabindex="-1" autofocus>
        <Switch>
          <Match when={props.picker.type === 'picker.model'}>
            <ModelPicker
              payload={payload<PickerModelFrame['payload']>()}
              disabled={locked()}
              onAnswer={(value) => void answer(value)}
            />
          </Match>
          <Match when={props.picker.type === 'picker.choice'}>
            <ChoicePicker
              payload={payload<PickerChoiceFrame['payload']>()}
              disabled={locked()}
              onAnswer={(value) => void answer(value)}
            />
          </Match>
          <Match when={props.picker.type === 'picker.clarify'}>
            <ClarifyPicker
              payload={payload<PickerClarifyFrame['payload']>()}
              disabled={locked()}
              onAnswer={(value) => void answer(value)}
            />
          </Match>
          <Match when={props.picker.type === 'picker.approval'}>
            <ApprovalPicker
              payload={payload<PickerApprovalFrame['payload']>()}
              disabled={locked()}
              onAnswer={(value) => void answer(value)}
            />
          </Match>
          <Match when={props.picker.type === 'picker.confirm'}>
            <ConfirmPicker
              payload={payload<PickerConfirmFrame['payload']>()}
              disabled={locked()}
              onAnswer={(value) => void answer(value)}
            />
          </Match>
        </Switch>
      </div>
      <Show when={error()}>
        <p class="error-text picker-error" role="alert">
          {error()}
        </p>
      </Show>
      <div class="picker-footer">
        <button type="button" class="button secondary" onClick={() => props.onDismiss()}>
          Not now
        </button>
      </div>
    </ModalDialog>
  );
}
