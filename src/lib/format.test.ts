import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, gatewayTooLargeText, tooLargeText } from './format';

describe('words for sizes and durations', () => {
  it('bytes', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(500 * 1024 * 1024)).toBe('500 MB');
    expect(formatBytes(1024 * 1024 * 1024 * 1.25)).toBe('1.3 GB');
    expect(formatBytes(1023.99 * 1024)).toBe('1 MB');
  });
  it('durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(7.9)).toBe('0:07');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(Infinity)).toBe('');
    expect(formatDuration(undefined)).toBe('');
  });
  it('a refusal names the file, its size and the limit', () => {
    expect(tooLargeText('big.bin', 25 * 1024 * 1024, 20 * 1024 * 1024)).toBe(
      '“big.bin” is 25 MB; attachments can be at most 20 MB.',
    );
    expect(gatewayTooLargeText('a.png', 3 * 1024 * 1024, 'The file is 3145728 bytes; the limit is 1048576.')).toBe(
      '“a.png” is 3 MB; the gateway accepts files of at most 1 MB.',
    );
    expect(gatewayTooLargeText('a.png', 3 * 1024 * 1024, 'The upload passed the 1048576-byte limit.')).toContain(
      'at most 1 MB',
    );
    expect(gatewayTooLargeText('a.png', 2048, '<b>nope</b>')).toBe('“a.png” is 2 KB, more than the gateway accepts.');
  });
});
