// Whether the gateway can wake this browser at all, from hello.ack's server_caps.push (issue 14).
// `webpush` (this project's extension) pushes directly and `ntfy` (or a gateway that says nothing)
// publishes to ntfy, which this server relays; `fcm` reaches only the Android app through Firebase,
// and `none` sends no push: a browser cannot be woken by either.
import type { ServerCaps } from '../protocol';

/** The sentence saying why this gateway cannot wake the app, or undefined when it can. */
export function gatewayCannotWake(caps: ServerCaps | undefined): string | undefined {
  switch (caps?.push) {
    case 'fcm':
      return 'This gateway cannot wake Iris in a browser: it sends push notifications only through Firebase Cloud Messaging (FCM), which reaches the Android app, not a web app. You see new messages while Iris is open.';
    case 'none':
      return 'This gateway cannot wake Iris: it sends no push notifications at all. You see new messages while Iris is open.';
    default:
      return undefined;
  }
}
