// Service workers, notifications and installing exist only in a secure context (https://, or localhost
// on the device itself). `npm start`'s LAN link is plain http: a phone that opens it gets none of them,
// and a browser that is fine must not be blamed for it.

/** Whether this page was opened at an address where the browser withholds the PWA's features. */
export function needsHttps(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext === false;
}

/** What to do about it, in words, naming the address the page is open at. */
export function httpsAdvice(): string {
  return (
    `This page is open at ${location.origin}, a plain-HTTP address, where browsers allow no notifications, ` +
    'no installing and no offline use. Open Iris at an https:// address (see “On your phone” in the README) ' +
    'and pair there.'
  );
}
