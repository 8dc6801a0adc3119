import { For, createSignal, onMount } from 'solid-js';
import { useIris } from '../../../runtime';
import { getTheme, setTheme, type ThemeChoice } from '../../../runtime/theme';
import { SettingsSection } from './SettingsSection';

const OPTIONS: { value: ThemeChoice; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follow this device' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

/** Theme: follow the system, or always light or dark. Applies at once and persists. */
export function AppearanceSettings() {
  const { db } = useIris();
  const [choice, setChoice] = createSignal<ThemeChoice>('system');
  onMount(() => void getTheme(db).then((theme) => setChoice(theme)));

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
                  void setTheme(db, option.value);
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
