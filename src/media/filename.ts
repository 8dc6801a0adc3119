// Filenames from the gateway are untrusted: they name a download and nothing else. A clean display
// name, and the Content-Disposition header (RFC 6266, with RFC 5987 UTF-8 encoding) built from it.

/** No path parts, control or bidi-override characters; trimmed and bounded; "file" when nothing is left. */
export function sanitizeFilename(raw: unknown, fallback = 'file'): string {
  const base = typeof raw === 'string' ? (raw.split(/[\\/]/).pop() ?? '') : '';
  const stripped = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    // Lone surrogates too: they cannot be encoded as UTF-8. Pairs are matched first and kept (no
    // lookbehind: Safari before 16.4 cannot parse one).
    .replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g, (found) => (found.length === 2 ? found : ''))
    .trim();
  // By code points, so a cut never splits a surrogate pair.
  const clean = Array.from(stripped).slice(0, 200).join('').trim();
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

/** RFC 5987 attr-char: everything else is percent-encoded as UTF-8. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `attachment; filename="ascii"; filename*=UTF-8''utf8` (or `inline`). The quoted fallback keeps
 * printable ASCII only, without quotes or backslashes, for clients that ignore filename*.
 */
export function contentDisposition(filename: unknown, disposition: 'inline' | 'attachment'): string {
  const name = sanitizeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const header = `${disposition}; filename="${ascii}"`;
  return ascii === name ? header : `${header}; filename*=UTF-8''${encodeRfc5987(name)}`;
}
