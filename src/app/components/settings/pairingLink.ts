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
