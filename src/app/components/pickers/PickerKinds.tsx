// The body of each picker kind (spec README §11). Every string comes from the gateway: text nodes only.
import { For, Show, createSignal, createUniqueId } from 'solid-js';
import type {
  PickerApprovalFrame,
  PickerChoiceFrame,
  PickerClarifyFrame,
  PickerConfirmFrame,
  PickerModelFrame,
} from '../../../protocol';
import { OptionList } from './OptionList';
import { APPROVAL_ANSWERS, isCurrentModel, modelValue, typedAnswer } from './pickerText';
import { textDirection } from '../../../lib/textDirection';

interface KindProps<P> {
  payload: P;
  disabled: boolean;
  onAnswer: (value: string) => void;
}

export function ModelPicker(props: KindProps<PickerModelFrame['payload']>) {
  return (
    <div class="picker-groups">
      <For each={props.payload.providers}>
        {(provider) => {
          const headingId = createUniqueId();
          return (
            <section class="picker-group" aria-labelledby={headingId}>
              <h3 id={headingId} class="picker-group-title">
                {provider.label || provider.id}
              </h3>
              <OptionList
                disabled={props.disabled}
                onPick={props.onAnswer}
                options={provider.models.map((model) => ({
                  value: modelValue(provider.id, model.id),
                  label: model.label || model.id,
                  current: isCurrentModel(props.payload, provider.id, model.id),
                }))}
              />
            </section>
          );
        }}
      </For>
      <Show when={props.payload.providers.length === 0}>
        <p class="picker-muted">The gateway offered no models.</p>
      </Show>
    </div>
  );
}

export function ChoicePicker(props: KindProps<PickerChoiceFrame['payload']>) {
  return (
    <OptionList
      disabled={props.disabled}
      onPick={props.onAnswer}
      options={props.payload.choices.map((c) => ({ value: c.value, label: c.label || c.value, current: c.is_current }))}
    />
  );
}

export function ClarifyPicker(props: KindProps<PickerClarifyFrame['payload']>) {
  const [text, setText] = createSignal('');
  const [hint, setHint] = createSignal('');
  const choices = () => props.payload.choices ?? [];
  return (
    <div class="picker-clarify">
      <Show when={choices().length > 0}>
        <OptionList
          disabled={props.disabled}
          onPick={props.onAnswer}
          options={choices().map((c) => ({ value: c.value, label: c.label || c.value, current: c.is_current }))}
        />
      </Show>
      <form
        class="picker-answer-form"
        onSubmit={(e) => {
          e.preventDefault();
          const answer = typedAnswer(text());
          if (answer === undefined) {
            setHint(choices().length > 0 ? 'Type an answer, or pick one above.' : 'Type an answer.');
            return;
          }
          props.onAnswer(answer);
        }}
      >
        <label class="field">
          <span>{choices().length > 0 ? 'Or answer in your own words' : 'Your answer'}</span>
          <textarea
            name="answer"
            dir={textDirection(text())}
            rows={2}
            maxLength={2000}
            value={text()}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setHint('');
            }}
          />
        </label>
        <Show when={hint()}>
          <p class="error-text" role="alert">
            {hint()}
          </p>
        </Show>
        <div class="modal-actions">
          <button type="submit" class="button" disabled={props.disabled}>
            Send answer
          </button>
        </div>
      </form>
    </div>
  );
}

export function ApprovalPicker(props: KindProps<PickerApprovalFrame['payload']>) {
  return (
    <div class="picker-approval">
      <Show when={props.payload.description}>
        <p dir="auto">{props.payload.description}</p>
      </Show>
      {/* Focusable so a long command can be scrolled with the keyboard. */}
      <pre class="picker-command" tabindex="0" aria-label="Command">
        <code>{props.payload.command}</code>
      </pre>
      <div class="picker-approval-actions">
        <For each={APPROVAL_ANSWERS}>
          {(answer) => (
            <button
              type="button"
              class="button"
              classList={{ secondary: answer.value !== 'once', deny: answer.value === 'deny' }}
              disabled={props.disabled}
              onClick={() => props.onAnswer(answer.value)}
            >
              {answer.label}
            </button>
          )}
        </For>
      </div>
    </div>
  );
}

export function ConfirmPicker(props: KindProps<PickerConfirmFrame['payload']>) {
  return (
    <div class="picker-confirm">
      <Show when={props.payload.message}>
        <p dir="auto">{props.payload.message}</p>
      </Show>
      <div class="modal-actions">
        <button type="button" class="button secondary" disabled={props.disabled} onClick={() => props.onAnswer('no')}>
          No
        </button>
        <button type="button" class="button" disabled={props.disabled} onClick={() => props.onAnswer('yes')}>
          Yes
        </button>
      </div>
    </div>
  );
}
