import { describe, expect, it } from 'vitest';
import { contentDisposition, sanitizeFilename } from './filename';

describe('untrusted filenames', () => {
  it('keeps the last path part, drops control and bidi characters', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\x\\report.pdf')).toBe('report.pdf');
    expect(sanitizeFilename('a\r\nb.txt')).toBe('ab.txt');
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFilename('  spaced.txt  ')).toBe('spaced.txt');
  });
  it('empty, dots or not a string: the fallback', () => {
    expect(sanitizeFilename('')).toBe('file');
    expect(sanitizeFilename('..')).toBe('file');
    expect(sanitizeFilename('dir/')).toBe('file');
    expect(sanitizeFilename(42)).toBe('file');
    expect(sanitizeFilename(undefined, 'image.png')).toBe('image.png');
  });
  it('is bounded without splitting a character', () => {
    const long = '😀'.repeat(300);
    const clean = sanitizeFilename(long);
    expect(Array.from(clean)).toHaveLength(200);
    expect(() => encodeURIComponent(clean)).not.toThrow();
    expect(sanitizeFilename('a\uD800b')).toBe('ab');
    // A lone low surrogate goes too; a pair (an emoji) stays whole, next to lone halves.
    expect(sanitizeFilename('a\uDC00b')).toBe('ab');
    expect(sanitizeFilename('\uDC00😀\uD800.png')).toBe('😀.png');
  });
});

describe('Content-Disposition (RFC 6266 / 5987)', () => {
  it('plain ASCII names are quoted as they are', () => {
    expect(contentDisposition('report.pdf', 'attachment')).toBe('attachment; filename="report.pdf"');
    expect(contentDisposition('photo 1.png', 'inline')).toBe('inline; filename="photo 1.png"');
  });
  it('other names get an ASCII fallback and a UTF-8 filename*', () => {
    expect(contentDisposition('Grüße € 2024.pdf', 'attachment')).toBe(
      `attachment; filename="Gr__e _ 2024.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%E2%82%AC%202024.pdf`,
    );
  });
  it('quotes and percent signs never reach the quoted form; RFC 5987 specials are encoded', () => {
    const header = contentDisposition(`a"b%d'(e)*.txt`, 'attachment');
    expect(header).toBe(`attachment; filename="a_b_d'(e)*.txt"; filename*=UTF-8''a%22b%25d%27%28e%29%2A.txt`);
  });
  it('a hostile name cannot add a header line or a parameter', () => {
    const header = contentDisposition('x.txt"; filename="evil.html\r\nSet-Cookie: a=b', 'attachment');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="x.txt_; filename=_evil.html')).toBe(true);
    expect(() => new Headers({ 'Content-Disposition': header })).not.toThrow();
  });
});
