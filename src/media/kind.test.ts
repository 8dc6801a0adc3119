import { describe, expect, it } from 'vitest';
import { baseMime, isInlineMime, kindFromMime } from './kind';

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
});
