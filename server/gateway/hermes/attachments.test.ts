import { describe, expect, it, vi } from 'vitest';
import type { MediaRef } from '../../../src/protocol';
import { earlierTextsBudget, earlierWords } from './attachments';

const ref = (media_id: string, filename: string, mime: string, size: number): MediaRef => ({
  media_id,
  kind: mime.startsWith('image/') ? 'image' : 'document',
  mime,
  size,
  filename,
});

describe('earlierWords', () => {
  it('repeats an earlier message’s text files and never reads its pictures (each run would encode them again)', () => {
    const stored = new Map([
      ['m-pic', Buffer.alloc(4 * 1024 * 1024, 1)],
      ['m-log', Buffer.from('step 2 FAILED\n')],
    ]);
    const bytesOf = vi.fn((id: string) => stored.get(id));
    const refs = [ref('m-pic', 'shot.png', 'image/png', 4 * 1024 * 1024), ref('m-log', 'build.log', 'text/plain', 14)];
    const words = earlierWords('what failed?', refs, bytesOf, earlierTextsBudget());
    expect(words).toBe('[Content of build.log]:\nstep 2 FAILED\n\n\nwhat failed?');
    expect(bytesOf.mock.calls).toEqual([['m-log']]);
  });
});
