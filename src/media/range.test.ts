import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('Range header', () => {
  const size = 3 * 1024 * 1024;
  it('a closed range is those bytes, inclusive', () => {
    expect(parseRange('bytes=1000-1999', size)).toEqual({ kind: 'partial', start: 1000, end: 1999 });
    expect(parseRange('bytes=0-0', size)).toEqual({ kind: 'partial', start: 0, end: 0 });
  });
  it('an open range runs to the end; an end past the body is clamped', () => {
    expect(parseRange('bytes=0-', size)).toEqual({ kind: 'partial', start: 0, end: size - 1 });
    expect(parseRange('bytes=100-99999999999', 1000)).toEqual({ kind: 'partial', start: 100, end: 999 });
  });
  it('a suffix range is the last N bytes', () => {
    expect(parseRange('bytes=-500', 1000)).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ kind: 'partial', start: 0, end: 999 });
  });
  it('a start at or past the end cannot be satisfied', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=5000-6000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });
  it('no header, other units, several ranges, reversed or malformed ranges: the whole body', () => {
    for (const header of [
      null,
      undefined,
      '',
      'items=0-5',
      'bytes=0-5,10-20',
      'bytes=9-3',
      'bytes=-',
      'bytes=a-b',
      'bytes 0-5',
    ]) {
      expect(parseRange(header, 1000)).toEqual({ kind: 'whole' });
    }
  });
  it('is case- and space-tolerant', () => {
    expect(parseRange('Bytes = 10 - 19', 100)).toEqual({ kind: 'partial', start: 10, end: 19 });
  });
});
