// Why pairing does not connect, in words, soon enough to matter (issue 16.1): the browser reports a
// blocked or unanswered WebSocket only in the console, and the app's retries would show
// "Connecting…" forever.
import type { ConnectionState } from '../../../client';

/** How long "Connecting…" may stand before the page says that nothing answers. */
export const NO_ANSWER_MS = 4000;

export interface PairingAttempt {
  /** The gateway URL as typed or linked. */
  url: string;
  state: ConnectionState;
  /** Since the person pressed Connect (or opened the link). */
  waitedMs: number;
  /** The page's Content-Security-Policy refused a connection to that URL's host. */
  cspBlocked: boolean;
  /** The first attempt already failed (socket error or close). */
  failed: boolean;
  /** A socket opened, and the gateway closed it after Iris said hello (without refusing the token in words). */
  closedAtHello?: boolean;
  /** The page's own origin, e.g. https://iris.example (its gateway is <origin>/ws). */
  pageOrigin: string;
}

/** The sentence to show instead of "Connecting…", or undefined while there is nothing to say yet. */
export function pairingProblem(a: PairingAttempt): string | undefined {
  if (a.state === 'online' || a.state === 'auth-failed') return undefined;
  let target: URL;
  try {
    target = new URL(a.url);
  } catch {
    return undefined;
  }
  const own = a.pageOrigin.replace(/^http/, 'ws') + '/ws';
  if (a.pageOrigin.startsWith('https:') && target.protocol === 'ws:') {
    return `This page is served over HTTPS, so it can reach only a secure gateway: use a wss:// address (for this server, ${own}).`;
  }
  if (a.cspBlocked) {
    return `This server connects only to its own gateway (${own}): to use ${target.href}, start the server with --gateway ${target.href}.`;
  }
  if (a.closedAtHello) {
    return `The gateway at ${target.href} answered, then closed the connection when Iris said hello. Check the token: copy it again from where the gateway printed it. Iris keeps trying.`;
  }
  if (a.failed || a.waitedMs >= NO_ANSWER_MS) {
    return `Nothing answers at ${target.href}. Check the address, and that the gateway is running and reachable from this device. Iris keeps trying.`;
  }
  return undefined;
}

/**
 * Whether `err` is the browser failing to load one of the app's own code chunks (the page's server
 * stopped answering before the connection's code arrived). Chromium, Firefox and Safari word it so.
 */
export function isCodeLoadFailure(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /dynamically imported module|Importing a module script failed/i.test(message);
}

/** What to say when the connection's own code could not load from the page's server. */
export function codeLoadProblem(pageOrigin: string): string {
  return `This page's server (${pageOrigin}) stopped answering before Iris had loaded, so it cannot connect yet. Check that the server is running, then press Connect again.`;
}

/** Whether a CSP violation report (securitypolicyviolation) is about connecting to `url`. */
export function blocksGateway(blockedURI: string, directive: string, url: string): boolean {
  if (!directive.startsWith('connect-src')) return false;
  try {
    return new URL(blockedURI).host === new URL(url).host;
  } catch {
    return false;
  }
}
