// HTTP Range requests (RFC 9110 §14) over a Blob of known size, so audio and video can seek.

export type RangeAnswer =
  /** No usable Range header (absent, not bytes, several ranges, malformed): send the whole body (200). */
  | { kind: 'whole' }
  /** Bytes start..end inclusive (206). */
  | { kind: 'partial'; start: number; end: number }
  /** Syntactically fine but outside the body (416). */
  | { kind: 'unsatisfiable' };

export function parseRange(header: string | null | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // A list of ranges is allowed to be answered with the whole body; so is anything we do not understand.
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // Suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return { kind: 'unsatisfiable' };
  if (start >= size) return { kind: 'unsatisfiable' };
  let end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(end)) end = size - 1;
  if (end < start) return { kind: 'whole' }; // invalid range: ignored (RFC 9110 §14.1.1)
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
