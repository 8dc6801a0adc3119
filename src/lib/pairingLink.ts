// The link that pairs another device: this app's address with the gateway and token in the
// fragment (#/pair?url=…&token=…). A fragment is never sent to a server, so the token stays local.

export function pairingLink(appUrl: string, gatewayUrl: string, token: string): string {
  const base = new URL(appUrl);
  base.hash = '';
  base.search = '';
  return `${base.toString()}#/pair?url=${encodeURIComponent(gatewayUrl)}&token=${encodeURIComponent(token)}`;
}

/** True when the address only works on this computer (a phone scanning it would not reach it). */
export function isLocalOnly(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * True when `href` (resolved against `base`, the app's own address) opens this app's pairing screen
 * (#/pair…). Such a link replaces the gateway and token, so one inside a message or a notification is
 * never followed: it could unpair the app, or pair it with someone else's gateway.
 */
export function isPairingUrl(href: string, base: string): boolean {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return false;
  }
  if (url.origin !== new URL(base).origin) return false;
  let path = url.hash.replace(/^#/, '').split('?', 1)[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A broken escape: judged as written.
  }
  return /^\/*pair(?:[/?#;]|$)/i.test(path.trim());
}

export interface PairingLinkFields {
  url: string;
  token: string;
  /** The lane the link opens (thread_id ?? chat_id), when it names one. */
  lane?: string;
}

/**
 * The gateway, token and lane of a pairing link (a scanned QR code, untrusted): a full address or
 * just its fragment (`#/pair?url=…&token=…&lane=…`). Undefined when it is not a pairing link.
 */
export function readPairingLink(text: string): PairingLinkFields | undefined {
  const trimmed = text.trim();
  const at = trimmed.indexOf('#/pair?');
  if (at < 0 || trimmed.length > 4096) return undefined;
  const params = new URLSearchParams(trimmed.slice(at + '#/pair?'.length));
  const url = params.get('url')?.trim() ?? '';
  const token = params.get('token')?.trim() ?? '';
  if (!/^(wss?|https?):\/\/\S+$/i.test(url) || token === '') return undefined;
  const lane = params.get('lane')?.trim();
  return lane ? { url, token, lane } : { url, token };
}
