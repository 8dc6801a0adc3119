import { For, Show, createEffect } from 'solid-js';
import type { CommandInfo } from '../../../protocol';
import { commandText } from './slash';

interface SlashMenuProps {
  id: string;
  commands: CommandInfo[];
  active: number;
  /** Id of option i (the textbox points at the active one with aria-activedescendant). */
  optionId: (index: number) => string;
  onPick: (command: CommandInfo) => void;
}

/** The slash-command suggestions: a listbox the composer's textbox controls. Text from the gateway is text only. */
export function SlashMenu(props: SlashMenuProps) {
  let list!: HTMLUListElement;
  // Keep the active option in view as the arrows move through a long list.
  createEffect(() => {
    const active = props.active >= 0 ? list.querySelector(`#${CSS.escape(props.optionId(props.active))}`) : null;
    active?.scrollIntoView({ block: 'nearest' });
  });
  return (
    <ul ref={list} id={props.id} class="slash-menu" role="listbox" aria-label="Commands">
      <For each={props.commands}>
        {(command, index) => (
          <li
            id={props.optionId(index())}
            role="option"
            class="slash-option"
            // Not in the tab order (the textbox keeps focus), but focusable for pointer and scroll.
            tabindex="-1"
            aria-selected={index() === props.active}
            // Keep the focus in the textbox while the pointer picks.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => props.onPick(command)}
          >
            <span class="slash-line">
              <span class="slash-name">{commandText(command)}</span>
              <Show when={command.args_hint}>
                <span class="slash-args">{command.args_hint}</span>
              </Show>
            </span>
            <Show when={command.description}>
              <span class="slash-description">{command.description}</span>
            </Show>
          </li>
        )}
      </For>
    </ul>
  );
}
