/** Small HTTP helpers for the push endpoints: bounded body reading and JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface BodyLimits {
  /** Bytes kept; the rest of an allowed body is read and thrown away. */
  keepBytes: number;
  /** Bodies larger than this are refused (413) without reading them whole. */
  maxBytes: number;
  /** Deadline for the whole body, against clients that trickle (default 10 s). */
  timeoutMs?: number;
}

export interface ReadBody {
  bytes: Buffer;
  /** Size of the whole body; more than bytes.length when it was cut. */
  total: number;
}

/** Reads at most `maxBytes` of the request body, keeping the first `keepBytes`. Throws HttpError 413/408/400. */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<ReadBody> {
  const { keepBytes, maxBytes, timeoutMs = 10_000 } = limits;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(new HttpError(413, `request body is ${declared} bytes; the limit is ${maxBytes}`));
  }
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let total = 0;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      fn();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        req.pause();
        return finish(() => reject(new HttpError(413, `request body is over the limit of ${maxBytes} bytes`)));
      }
      if (keptBytes < keepBytes) {
        const part = chunk.subarray(0, keepBytes - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    };
    const onEnd = () => finish(() => resolve({ bytes: Buffer.concat(kept), total }));
    const onError = () => finish(() => reject(new HttpError(400, 'request body could not be read')));
    const timer = setTimeout(() => finish(() => reject(new HttpError(408, 'request body took too long'))), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Reads and parses a JSON body of at most `maxBytes`. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const { bytes } = await readBody(req, { keepBytes: maxBytes, maxBytes });
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

/** Error answers look like ntfy's (`{code, http, error}`), so ntfy publishers log something sensible. */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  // A refused body is left unread: close the connection, giving the client a moment to read the answer
  // (discarding what it still sends) before the socket is cut, so a huge body is never read whole.
  const unread = !req.complete;
  sendJson(
    res,
    status,
    { code: status * 100, http: status, error: message },
    unread ? { ...headers, connection: 'close' } : headers,
  );
  if (unread) {
    res.once('finish', () => {
      req.resume();
      setTimeout(() => req.destroy(), 1000).unref();
    });
  }
}
