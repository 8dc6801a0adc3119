// The words a person sees for each error code the gateway may send (spec README §15).
import type { ErrorCode } from './frames';

const ERROR_WORDS: Record<ErrorCode, string> = {
  auth: 'The gateway did not accept this device. Pair it again.',
  not_found: 'That no longer exists on the gateway.',
  rate_limited: 'The gateway is busy. Trying again in a moment.',
  media_too_large: 'That file is too large for the gateway.',
  unsupported: 'The gateway does not support this.',
  internal: 'Something went wrong on the gateway. Try again.',
};

/** Plain-English text for an error code; unknown codes (a newer gateway) get a generic sentence. */
export function describeError(code: string): string {
  return (ERROR_WORDS as Record<string, string>)[code] ?? 'The gateway reported an unexpected problem.';
}

/** The longest gateway message shown (its own words, untrusted: shown as text only). */
const MAX_GATEWAY_WORDS = 300;

/**
 * What a person reads for a gateway's refusal: its own words when it gave any ("No turn is in progress
 * in this lane to steer."), squeezed to one bounded line; the code's sentence (`fallback`) only when it gave none.
 */
export function gatewayWords(code: string, message: unknown, fallback = describeError(code)): string {
  const own = typeof message === 'string' ? message.replace(/\s+/g, ' ').trim().slice(0, MAX_GATEWAY_WORDS) : '';
  return own || fallback;
}
