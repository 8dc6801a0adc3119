// The in-app "Install" action: shown while the browser offers beforeinstallprompt, hidden once installed.
import { createSignal } from 'solid-js';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const [deferred, setDeferred] = createSignal<BeforeInstallPromptEvent | undefined>();

export const canInstall = () => deferred() !== undefined;

export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    setDeferred(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => setDeferred(undefined));
}

export async function promptInstall(): Promise<void> {
  const event = deferred();
  if (!event) return;
  await event.prompt();
  const choice = await event.userChoice;
  if (choice.outcome === 'accepted') setDeferred(undefined);
}
