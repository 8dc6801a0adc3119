// Errors a request can end with (spec README §15); their words are the protocol's (protocol/errors.ts).
import type { ClientFrameType, ErrorCode } from '../protocol';
import { describeError, gatewayWords } from '../protocol/errors';

export { describeError };

/** Where the code's sentence would mislead for one kind of request, the words for that request. */
const REQUEST_ERROR_WORDS: Partial<Record<ClientFrameType, Partial<Record<ErrorCode, string>>>> = {
  'picker.select': { not_found: 'This question was already answered or has closed.' },
};

/** Plain-English text for an error answering a request of type `request`. */
function describeRequestError(request: ClientFrameType, code: string): string {
  return (REQUEST_ERROR_WORDS[request] as Record<string, string> | undefined)?.[code] ?? describeError(code);
}

/**
 * The gateway answered a request with an `error` frame. Its message is what a person reads wherever the
 * refusal shows (a toast, the composer, a dialog): the gateway's own words when it gave any, else ours
 * for the code (for the request `request` when that sentence would mislead).
 */
export class ProtocolError extends Error {
  readonly code: string;
  /** The gateway's own message, as sent (untrusted; shown as text only). */
  readonly detail: string;
  constructor(code: string, detail: string, request?: ClientFrameType) {
    super(gatewayWords(code, detail, request ? describeRequestError(request, code) : describeError(code)));
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
