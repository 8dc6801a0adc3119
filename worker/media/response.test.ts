import { describe, expect, it } from 'vitest';
import { mediaResponse } from './response';

const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31 + 7) % 251);
const video = new Blob([bytes], { type: 'video/mp4' });
const get = (headers: Record<string, string> = {}, method = 'GET') => ({ method, headers: new Headers(headers) });

describe('/media responses', () => {
  it('a Range request gets 206 with exactly those bytes', async () => {
    const res = mediaResponse({ mime: 'video/mp4', filename: 'clip.mp4' }, video, get({ Range: 'bytes=1000-1999' }));
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(res.headers.get('Content-Length')).toBe('1000');
    expect(res.headers.get('Content-Type')).toBe('video/mp4');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(1000, 2000));
  });

  it('no Range: 200 with everything, and it says ranges are accepted', async () => {
    const res = mediaResponse({ mime: 'image/png', filename: 'a.png' }, new Blob([bytes.slice(0, 10)]), get());
    expect(res.status).toBe(200);
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Length')).toBe('10');
    expect(res.headers.get('Content-Disposition')).toBe('inline; filename="a.png"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(0, 10));
  });

  it('an unsatisfiable range is 416 with the full length', async () => {
    const res = mediaResponse(
      { mime: 'video/mp4', filename: 'clip.mp4' },
      video,
      get({ Range: `bytes=${bytes.length}-` }),
    );
    expect(res.status).toBe(416);
    expect(res.headers.get('Content-Range')).toBe(`bytes */${bytes.length}`);
  });

  it('documents download under their original name; nothing untrusted is shown inline or runs', () => {
    const pdf = mediaResponse({ mime: 'application/pdf', filename: 'Bericht Müller.pdf' }, new Blob(['x']), get());
    expect(pdf.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Bericht M_ller.pdf"; filename*=UTF-8''Bericht%20M%C3%BCller.pdf`,
    );
    const html = mediaResponse({ mime: 'text/html', filename: 'x.html' }, new Blob(['<script>1</script>']), get());
    expect(html.headers.get('Content-Disposition')).toMatch(/^attachment;/);
    expect(html.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect(html.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const svg = mediaResponse({ mime: 'image/svg+xml', filename: 'x.svg' }, new Blob(['<svg/>']), get());
    expect(svg.headers.get('Content-Disposition')).toMatch(/^attachment;/);
    // The same rule as the app's Blobs: anything not inline is typed as bytes to save.
    expect(svg.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(html.headers.get('Content-Type')).toBe('application/octet-stream');
    const junk = mediaResponse({ mime: 'text/html\r\nSet-Cookie: a', filename: 'x' }, new Blob(['x']), get());
    expect(junk.headers.get('Content-Type')).toBe('application/octet-stream');
  });

  it('HEAD has the headers and no body', async () => {
    const res = mediaResponse({ mime: 'video/mp4', filename: 'clip.mp4' }, video, get({ Range: 'bytes=0-99' }, 'HEAD'));
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Length')).toBe('100');
    expect(res.body).toBeNull();
  });
});
