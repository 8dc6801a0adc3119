/// <reference lib="webworker" />
// The app's open windows, seen from the service worker: which lane each shows, opening a lane in one,
// and asking one to answer a question over the app's own connection.
import { isSelectReply, type SelectReply, type WorkerToWindow } from '../../src/push/worker-messages';
import { laneOfWindowUrl } from './links';

declare const self: ServiceWorkerGlobalScope;

/** How long a window may take to answer before the worker uses its own connection. */
const WINDOW_ANSWER_MS = 4_000;

export async function appWindows(): Promise<WindowClient[]> {
  const all = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return all.filter((c) => new URL(c.url).origin === self.location.origin);
}

/**
 * Whether a visible window already shows `lane`: it shows the in-app toast, so no notification.
 * Visible, not focused: two windows side by side are both in view, and headless browsers never focus.
 */
export async function laneIsVisible(lane: string | undefined): Promise<boolean> {
  if (!lane) return false;
  return (await appWindows()).some((w) => w.visibilityState === 'visible' && laneOfWindowUrl(w.url) === lane);
}

/** Shows `url` (same origin) in an open window, focusing it, or opens a new one. */
export async function openInWindow(url: string): Promise<void> {
  const target = new URL(url, self.location.origin).href;
  const windows = await appWindows();
  const win = windows.find((w) => w.focused) ?? windows.find((w) => w.visibilityState === 'visible') ?? windows[0];
  if (!win) {
    await self.clients.openWindow(target);
    return;
  }
  // Focus first: it needs the click's user activation, which a slow navigation would outlive.
  const focused = await win.focus().catch(() => win);
  if (focused.url === target) return;
  try {
    // navigate() only works in windows this worker controls.
    if ((await focused.navigate(target)) !== null) return;
  } catch {
    /* not controlled: ask the app instead */
  }
  post(focused, { type: 'iris:push:open', url: target });
}

function post(win: WindowClient, message: WorkerToWindow, transfer: Transferable[] = []): void {
  win.postMessage(message, transfer);
}

/**
 * Asks an open window to send `picker.select` through the app's connection. Undefined when no window
 * could (none open, none answered in time, or the app is offline there).
 */
export async function answerThroughWindow(picker_id: string, value: string): Promise<SelectReply | undefined> {
  const windows = await appWindows();
  for (const win of windows) {
    const reply = await ask(win, picker_id, value);
    if (reply?.handled) return reply;
  }
  return undefined;
}

function ask(win: WindowClient, picker_id: string, value: string): Promise<SelectReply | undefined> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(undefined);
    }, WINDOW_ANSWER_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(isSelectReply(event.data) ? event.data : undefined);
    };
    post(win, { type: 'iris:push:select', picker_id, value }, [channel.port2]);
  });
}
