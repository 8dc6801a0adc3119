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
