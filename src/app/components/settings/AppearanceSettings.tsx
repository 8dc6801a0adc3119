import { For, createSignal, onMount } from 'solid-js';
import { useIris } from '../../../runtime';
import type { ThemeChoice } from '../../../runtime/theme';
import { SettingsSection } from './SettingsSection';

const OPTIONS: { value: ThemeChoice; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follow this device' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

/** Theme: follow the system, or always light or dark. Applies at once and persists. */
export function AppearanceSettings() {
  const { theme } = useIris();
  const [choice, setChoice] = createSignal<ThemeChoice>('system');
  onMount(() => void theme.get().then((stored) => setChoice(stored)));

  return (
    <SettingsSection title="Appearance">
      <fieldset class="settings-choices">
        <legend>Theme</legend>
        <For each={OPTIONS}>
          {(option) => (
            <label class="settings-choice">
              <input
                type="radio"
                name="theme"
                value={option.value}
                checked={choice() === option.value}
                onChange={() => {
                  setChoice(option.value);
                  void theme.set(option.value);
                }}
              />
              <span class="settings-choice-text">
                <span>{option.label}</span>
                <span class="settings-choice-hint">{option.hint}</span>
              </span>
            </label>
          )}
        </For>
      </fieldset>
    </SettingsSection>
  );
}
