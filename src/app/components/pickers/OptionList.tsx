import { For, Show } from 'solid-js';

export interface PickerOption {
  value: string;
  label: string;
  current?: boolean;
}

/** Options answered with one press; the current one is marked in words, not only by colour. */
export function OptionList(props: {
  options: PickerOption[];
  disabled: boolean;
  onPick: (value: string) => void;
  label?: string;
}) {
  return (
    <ul class="picker-options" aria-label={props.label}>
      <For each={props.options}>
        {(option) => (
          <li>
            <button
              type="button"
              class="picker-option"
              dir="auto"
              classList={{ current: option.current }}
              aria-current={option.current ? 'true' : undefined}
              disabled={props.disabled}
              onClick={() => props.onPick(option.value)}
            >
              <span class="picker-option-label">{option.label}</span>
              <Show when={option.current}>
                <span class="picker-current">Current</span>
              </Show>
            </button>
          </li>
        )}
      </For>
    </ul>
  );
}
