// The HTTP answer for /media/<id> from a stored row and its bytes: the right Content-Type, a
// Content-Disposition naming the original file, and Range (206/416) so audio and video can seek.
// Everything in the row came from the gateway and is untrusted: only raster images, audio and video
// are ever shown inline, and nothing served here may run script in the app's origin.
import { contentDisposition } from '../../src/media/filename';
import { isInlineMime, servedMime } from '../../src/protocol/mime';
import { parseRange } from '../../src/media/range';
import type { MediaRow } from '../../src/store/schema';

function mediaHeaders(row: Pick<MediaRow, 'mime' | 'filename'>): Headers {
  const inline = isInlineMime(row.mime);
  return new Headers({
    'Content-Type': servedMime(row.mime),
    'Content-Disposition': contentDisposition(row.filename, inline ? 'inline' : 'attachment'),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // Opened on its own (a link, a new tab), a file is a sandboxed document that runs nothing.
    'Content-Security-Policy': inline ? 'sandbox' : "sandbox; default-src 'none'",
  });
}

export function mediaResponse(
  row: Pick<MediaRow, 'mime' | 'filename'>,
  blob: Blob,
  request: { method: string; headers: Headers },
): Response {
  const headers = mediaHeaders(row);
  const head = request.method === 'HEAD';
  const range = parseRange(request.headers.get('Range'), blob.size);
  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${blob.size}`);
    headers.delete('Content-Disposition');
    return new Response(null, { status: 416, statusText: 'Range Not Satisfiable', headers });
  }
  if (range.kind === 'partial') {
    const part = blob.slice(range.start, range.end + 1);
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`);
    headers.set('Content-Length', String(part.size));
    return new Response(head ? null : part, { status: 206, statusText: 'Partial Content', headers });
  }
  headers.set('Content-Length', String(blob.size));
  return new Response(head ? null : blob, { status: 200, headers });
}

/** A plain-text error answer (404 unknown media, 504 not downloaded in time). */
export function mediaError(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
