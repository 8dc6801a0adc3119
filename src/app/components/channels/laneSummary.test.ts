import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisDB } from '../../../store/db';
import { freshDb } from '../../../testing/db';
import type { MessageRow } from '../../../store/schema';
import { laneSummary, plainPreview, channelPreview } from './laneSummary';

const msg = (id: string, lane: string, ts: number, role: MessageRow['role'], text: string): MessageRow => ({
  message_id: id,
  lane,
  chat_id: lane,
  role,
  text,
  ts,
  status: 'final',
});

describe('plainPreview', () => {
  it('turns Markdown into one line of words', () => {
    expect(plainPreview('# Title\n\n**Bold** and [a link](https://x.example) `code`\n- item')).toBe(
      'Title Bold and a link code item',
    );
    expect(plainPreview('<img src=x onerror=alert(1)>hi')).toBe('hi');
  });

  it('truncates with an ellipsis', () => {
    expect(plainPreview('word '.repeat(40), 20)).toBe('word word word word…');
  });
});

describe('laneSummary', () => {
  let db: IrisDB | undefined;
  afterEach(async () => {
    await db?.delete();
  });

  it('counts messages after the read mark that the user did not write, and previews the newest', async () => {
    db = freshDb();
    await db.messages.bulkPut([
      msg('a', 'L', 1, 'assistant', 'old'),
      msg('b', 'L', 2, 'user', 'mine'),
      msg('c', 'L', 3, 'assistant', 'new **one**'),
      msg('d', 'L', 4, 'user', 'also mine'),
      msg('e', 'L', 5, 'cron', 'stretch'),
    ]);
    await db.lanes.put({ lane: 'L', readTs: 1, busy: false, typing: false, turnSeq: 0 });
    expect(await laneSummary(db, 'L')).toEqual({ unread: 2, preview: 'stretch', previewRole: 'cron' });
    expect(await laneSummary(db, 'empty')).toEqual({ unread: 0, preview: '', previewRole: undefined });
  });
});

describe('channelPreview', () => {
  it('says whose the last message is for the person’s own and a reminder, not the agent’s', () => {
    expect(channelPreview({ unread: 0, preview: 'mine', previewRole: 'user' })).toEqual({ who: 'You:', text: 'mine' });
    expect(channelPreview({ unread: 1, preview: 'stretch', previewRole: 'cron' })).toEqual({
      who: 'Reminder:',
      text: 'stretch',
    });
    expect(channelPreview({ unread: 1, preview: 'hello', previewRole: 'assistant' })).toEqual({ text: 'hello' });
    expect(channelPreview({ unread: 0, preview: '' })).toBeUndefined();
  });
});
