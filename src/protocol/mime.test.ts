import { describe, expect, it } from 'vitest';
import { baseMime, isInlineMime, kindFromMime, mediaKindFor, servedMime, typedBlob } from './mime';

describe('kind from MIME', () => {
  it('images, audio and video by their type; everything else is a document', () => {
    expect(kindFromMime('image/png')).toBe('image');
    expect(kindFromMime('IMAGE/JPEG')).toBe('image');
    expect(kindFromMime('audio/mpeg')).toBe('audio');
    expect(kindFromMime('audio/webm;codecs=opus')).toBe('audio');
    expect(kindFromMime('video/mp4')).toBe('video');
    expect(kindFromMime('application/pdf')).toBe('document');
    expect(kindFromMime('text/html')).toBe('document');
    expect(kindFromMime('')).toBe('document');
    expect(kindFromMime(undefined)).toBe('document');
    expect(kindFromMime('not a type')).toBe('document');
  });

  it('SVG is markup, so a document', () => {
    expect(kindFromMime('image/svg+xml')).toBe('document');
    expect(isInlineMime('image/svg+xml')).toBe(false);
  });

  it('a recording is voice whatever its container', () => {
    expect(kindFromMime('audio/webm;codecs=opus', { recorded: true })).toBe('voice');
    expect(kindFromMime('audio/mp4', { recorded: true })).toBe('voice');
  });

  it('base MIME drops parameters and rejects junk', () => {
    expect(baseMime('audio/webm;codecs=opus')).toBe('audio/webm');
    expect(baseMime(' Text/Plain ; charset=utf-8')).toBe('text/plain');
    expect(baseMime('text/html\r\nX-Evil: 1')).toBe('');
    expect(baseMime('image')).toBe('');
  });

  it('only raster images, audio and video are inline', () => {
    expect(isInlineMime('image/png')).toBe(true);
    expect(isInlineMime('video/webm')).toBe(true);
    expect(isInlineMime('audio/ogg')).toBe(true);
    expect(isInlineMime('text/html')).toBe(false);
    expect(isInlineMime('application/pdf')).toBe(false);
    expect(isInlineMime('application/xhtml+xml')).toBe(false);
  });

  it('inline is an allow-list: markup, *+xml and unknown image types are not on it', () => {
    for (const mime of [
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'image/x-foo+xml',
      'image/heic',
      'text/javascript',
      'multipart/x-mixed-replace',
    ]) {
      expect(isInlineMime(mime)).toBe(false);
    }
  });

  it('what a Blob, object URL or /media/ answer is typed as: the inline type, else a download', () => {
    expect(servedMime('image/png')).toBe('image/png');
    expect(servedMime('Audio/WebM; codecs=opus')).toBe('audio/webm');
    for (const mime of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'application/pdf',
      'text/plain',
      '',
      undefined,
      'text/html\r\nX: 1',
    ]) {
      expect(servedMime(mime)).toBe('application/octet-stream');
    }
  });

  it('a stored Blob of another type is re-typed, its bytes unchanged', async () => {
    const svg = new Blob(['<svg onload="x()"/>'], { type: 'image/svg+xml' });
    const typed = typedBlob(svg, 'image/svg+xml');
    expect(typed.type).toBe('application/octet-stream');
    expect(await typed.text()).toBe('<svg onload="x()"/>');
    const png = new Blob(['x'], { type: 'image/png' });
    expect(typedBlob(png, 'image/png')).toBe(png);
  });

  it("a gateway's kind is kept only when the MIME type agrees", () => {
    expect(mediaKindFor('image', 'image/png')).toBe('image');
    expect(mediaKindFor('image', 'image/svg+xml')).toBe('document');
    expect(mediaKindFor('image', 'text/html')).toBe('document');
    expect(mediaKindFor('video', 'application/xhtml+xml')).toBe('document');
    expect(mediaKindFor('audio', 'audio/ogg')).toBe('audio');
    expect(mediaKindFor('voice', 'audio/webm;codecs=opus')).toBe('voice');
    expect(mediaKindFor('voice', 'text/html')).toBe('document');
    expect(mediaKindFor('document', 'image/png')).toBe('document');
    expect(mediaKindFor('image', 'video/mp4')).toBe('document');
  });
});
