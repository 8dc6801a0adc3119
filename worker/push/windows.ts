/// <reference lib="webworker" />
// The app's open windows, seen from the service worker: which lane each shows, opening a lane in one,
// and asking one to answer a question over the app's own connection.
import {
  isLaneReply,
  isOpenReply,
  isSelectReply,
  type SelectReply,
  type WorkerToWindow,
} from '../../src/push/worker-messages';
import { laneOfWindowUrl, sameOriginUrl } from './links';

declare const self: ServiceWorkerGlobalScope;

/** How long a window may take to say which lane it shows, or to show a route. */
const WINDOW_REPLY_MS = 1_000;
/** How long a window may take to send an answer before the worker uses its own connection. */
const WINDOW_ANSWER_MS = 8_000;

export async function appWindows(): Promise<WindowClient[]> {
  const all = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return all.filter((c) => new URL(c.url).origin === self.location.origin);
}

/** Posts `message` with a reply port; resolves with the reply if it passes `check` in time, else undefined. */
function ask<T>(
  win: WindowClient,
  message: WorkerToWindow,
  check: (value: unknown) => value is T,
  timeoutMs: number,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const done = (value: T | undefined) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    channel.port1.onmessage = (event) => done(check(event.data) ? event.data : undefined);
    win.postMessage(message, [channel.port2]);
  });
}

/**
 * Whether a visible window already shows `lane`: what the push says shows there, so no notification.
 * Visible, not focused: two windows side by side are both in view, and headless browsers never focus.
 * The window says which lane it shows (Client.url keeps the first URL of the page, not its hash route).
 */
export async function laneIsVisible(lane: string | undefined): Promise<boolean> {
  if (!lane) return false;
  const windows = (await appWindows()).filter((w) => w.visibilityState === 'visible');
  const answers = await Promise.all(
    windows.map(async (w) => {
      const reply = await ask(w, { type: 'iris:push:lane' }, isLaneReply, WINDOW_REPLY_MS);
      return reply ? reply.visible && reply.lane === lane : laneOfWindowUrl(w.url) === lane;
    }),
  );
  return answers.includes(true);
}

/** Shows `url` (same origin) in an open window, focusing it, or opens a new one. */
export async function openInWindow(url: string): Promise<void> {
  // Never another site, whatever a notification's data says.
  const target = sameOriginUrl(url, self.location.origin) ?? new URL('/', self.location.origin).href;
  const windows = await appWindows();
  const win = windows.find((w) => w.focused) ?? windows.find((w) => w.visibilityState === 'visible') ?? windows[0];
  if (!win) {
    await self.clients.openWindow(target);
    return;
  }
  // Focus first: it needs the click's user activation, which a slow answer would outlive.
  const focused = await win.focus().catch(() => win); // not focusable now: it is still the window to open the lane in
  // The app changes its hash route itself (no reload); a window without the bridge is navigated.
  if ((await ask(focused, { type: 'iris:push:open', url: target }, isOpenReply, WINDOW_REPLY_MS))?.opened) return;
  await focused
    .navigate(target)
    .catch((err: unknown) => console.warn('iris push: could not open the lane in the window', err));
}

/**
 * Asks an open window to send `picker.select` through the app's connection. Undefined when no window
 * could (none open, none answered in time, or the app is offline there).
 */
export async function answerThroughWindow(picker_id: string, value: string): Promise<SelectReply | undefined> {
  for (const win of await appWindows()) {
    const reply = await ask(win, { type: 'iris:push:select', picker_id, value }, isSelectReply, WINDOW_ANSWER_MS);
    if (reply?.handled) return reply;
  }
  return undefined;
}
