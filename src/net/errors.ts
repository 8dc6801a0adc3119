// Errors a request can end with, and the words a person sees for each (spec README §15).
import type { ClientFrameType, ErrorCode } from '../protocol';

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

/** Where the code's sentence would mislead for one kind of request, the words for that request. */
const REQUEST_ERROR_WORDS: Partial<Record<ClientFrameType, Partial<Record<ErrorCode, string>>>> = {
  'picker.select': { not_found: 'This question was already answered or has closed.' },
};

/** Plain-English text for an error answering a request of type `request`. */
export function describeRequestError(request: ClientFrameType, code: string): string {
  return (REQUEST_ERROR_WORDS[request] as Record<string, string> | undefined)?.[code] ?? describeError(code);
}

/** The gateway answered a request with an `error` frame. */
export class ProtocolError extends Error {
  readonly code: string;
  /** The gateway's own message (untrusted; shown only as detail). */
  readonly detail: string;
  constructor(code: string, detail: string) {
    super(describeError(code));
    this.name = 'ProtocolError';
    this.code = code;
    this.detail = detail;
  }
}

/** No answer within the request's timeout (spec README §2). */
export class RequestTimeoutError extends Error {
  constructor(type: string, ms: number) {
    super(`The gateway did not answer (${type}) within ${Math.round(ms / 1000)} s.`);
    this.name = 'RequestTimeoutError';
  }
}

/** The connection closed (or was not open) before the answer came. */
export class ConnectionLostError extends Error {
  constructor(message = 'Not connected to the gateway.') {
    super(message);
    this.name = 'ConnectionLostError';
  }
}
