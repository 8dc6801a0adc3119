import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

// A Host header is client-controlled; only a plain hostname or IP (with an optional port)
// may be reflected into the policy, so nobody can smuggle extra CSP directives through it.
const SAFE_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function isSafeHost(host: string | undefined): host is string {
  return typeof host === 'string' && host.length <= 255 && SAFE_HOST.test(host);
}

/**
 * The Content-Security-Policy for the app: everything from its own origin, its own WebSocket,
 * and blob:/data: for media the app builds in memory. No inline script, no eval, no framing.
 *
 * `style-src-attr 'unsafe-inline'`: Solid compiles static `style` values into its HTML templates
 * (`<div style=color:red>`), which the browser treats as inline style attributes. Style attributes
 * cannot run script, and every URL they could load is still bound by img-src/font-src; `<style>`
 * elements and stylesheets stay 'self' only.
 */
export function contentSecurityPolicy(host: string | undefined, secure: boolean): string {
  // CSP3 'self' already matches same-origin ws:/wss: in current browsers; the explicit
  // origins cover older engines. wss: is listed on plain http too, for a TLS terminator in front.
  const sockets = isSafeHost(host) ? (secure ? [`wss://${host}`] : [`ws://${host}`, `wss://${host}`]) : [];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self'",
    ['connect-src', "'self'", ...sockets].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Powerful features the page may use: the microphone (voice messages) and the camera (the attach
 * button's capture), both only for the app itself; everything else is off.
 */
const PERMISSIONS_POLICY = [
  'microphone=(self)',
  'camera=(self)',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'display-capture=()',
].join(', ');

/** Headers every response carries, whatever its status. */
export function securityHeaders(req: IncomingMessage, secure: boolean): OutgoingHttpHeaders {
  return {
    'Content-Security-Policy': contentSecurityPolicy(req.headers.host, secure),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    // frame-ancestors says the same to current browsers; this is for the ones that only know this header.
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': PERMISSIONS_POLICY,
    // Over TLS, the browser is told to never try plain http here again (a year).
    ...(secure ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
}
