import { describe, expect, it } from 'vitest';
import type { PickerRow } from '../../src/store/schema';
import {
  buildNotification,
  notificationTag,
  outcomeNotification,
  previousCount,
  questionAnswers,
} from './notification';
import { parsePush } from './payload';

const origin = 'https://iris.example';
const ctx = { previous: 0, maxActions: 2, origin };

describe('the notification for a push', () => {
  it('a reply: title, body, icon, badge, time, one tag per lane, the lane and ids as data, a click to the message', () => {
    const push = parsePush({
      kind: 'message',
      title: 'Iris',
      body: 'Done.',
      ts: 1_700_000_000_000,
      lane: 't1',
      chat_id: 'c1',
      thread_id: 't1',
      message_id: 'm 1',
    });
    const { title, options } = buildNotification(push, ctx);
    expect(title).toBe('Iris');
    expect(options).toMatchObject({
      body: 'Done.',
      tag: 'lane:t1',
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      timestamp: 1_700_000_000_000,
      data: {
        kind: 'message',
        lane: 't1',
        chat_id: 'c1',
        thread_id: 't1',
        message_id: 'm 1',
        url: '/#/c/c1/t/t1?m=m%201',
        count: 1,
      },
      renotify: false,
    });
    expect(options.actions).toBeUndefined();
  });

  it('replaces the lane’s earlier notification and counts', () => {
    const push = parsePush({ kind: 'message', title: 'Iris', body: 'Third', ts: 1, lane: 'c1', chat_id: 'c1' });
    const { options } = buildNotification(push, { ...ctx, previous: previousCount({ count: 2 }) });
    expect(options.body).toBe('3 new messages\nThird');
    expect(options.data).toMatchObject({ count: 3 });
    expect(options.renotify).toBe(true);
    expect(previousCount({ count: 'lots' })).toBe(0);
    expect(previousCount(null)).toBe(0);
  });

  it('an approval: its own tag (a later message never replaces it), Approve once / Deny, stays until answered', () => {
    const push = parsePush({
      kind: 'approval',
      title: 'Approval needed',
      body: 'Run make deploy?',
      ts: 5,
      lane: 'c1',
      chat_id: 'c1',
      picker_id: 'p1',
    });
    const { options } = buildNotification(push, ctx);
    expect(options.tag).toBe('picker:p1');
    expect(options.requireInteraction).toBe(true);
    expect(options.actions).toEqual([
      { action: 'once', title: 'Approve once' },
      { action: 'deny', title: 'Deny' },
    ]);
    expect(options.data).toMatchObject({
      picker_id: 'p1',
      answers: { once: { value: 'once', done: 'Approved once' }, deny: { value: 'deny', done: 'Denied' } },
    });
    expect(buildNotification(push, { ...ctx, maxActions: 0 }).options.actions).toBeUndefined();
  });

  it('clarify: its choices become actions only when they all fit; confirm gets Yes/No', () => {
    const push = parsePush({
      kind: 'clarify',
      title: 'Iris has a question',
      body: 'Which?',
      ts: 5,
      lane: 'c1',
      chat_id: 'c1',
      picker_id: 'p2',
    });
    const picker = (choices: { value: string; label: string }[]): PickerRow => ({
      picker_id: 'p2',
      lane: 'c1',
      type: 'picker.clarify',
      payload: { picker_id: 'p2', question: 'Which?', choices },
      state: 'open',
      ts: 1,
    });
    expect(questionAnswers(push, undefined, 2)).toEqual([]);
    expect(
      questionAnswers(
        push,
        picker([
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
          { value: 'c', label: 'C' },
        ]),
        2,
      ),
    ).toEqual([]);
    const two = questionAnswers(
      push,
      picker([
        { value: 'bullets', label: 'Bullet points' },
        { value: 'prose', label: 'Prose' },
      ]),
      2,
    );
    expect(two.map((a) => [a.action, a.title, a.answer.value])).toEqual([
      ['choice-0', 'Bullet points', 'bullets'],
      ['choice-1', 'Prose', 'prose'],
    ]);
    const confirm: PickerRow = {
      picker_id: 'p3',
      lane: 'c1',
      type: 'picker.confirm',
      payload: { picker_id: 'p3', title: 'Sure?' },
      state: 'open',
      ts: 1,
    };
    expect(questionAnswers({ ...push, picker_id: 'p3' }, confirm, 2).map((a) => a.answer.value)).toEqual(['yes', 'no']);
  });

  it('a relay push opens its click URL only on the app’s own origin', () => {
    const own = buildNotification(
      parsePush({ source: 'ntfy', kind: 'approval', title: 'T', body: 'B', ts: 1, click: `${origin}/#/c/x` }),
      ctx,
    );
    expect(own.options.data).toMatchObject({ url: `${origin}/#/c/x` });
    expect(own.options.tag).toBe('relay:approval');
    expect(own.options.actions).toBeUndefined();
    const foreign = buildNotification(
      parsePush({ source: 'ntfy', kind: 'generic', title: 'T', body: 'B', ts: 1, click: 'https://evil.example/' }),
      ctx,
    );
    expect(foreign.options.data).toMatchObject({ url: '/' });
  });

  it('untrusted payloads: garbage still shows something, seconds become ms, oversized ids are dropped', () => {
    const garbage = parsePush('not an object', 42);
    expect(buildNotification(garbage, ctx).title).toBe('Iris');
    expect(garbage.ts).toBe(42);
    expect(parsePush({ kind: 'cron', ts: 1_700_000_000 }).ts).toBe(1_700_000_000_000);
    expect(parsePush({ kind: 'message', lane: 'x'.repeat(300) }).lane).toBeUndefined();
    expect(buildNotification(parsePush({ kind: 'cron', body: 'stand up' }), ctx).title).toBe('Reminder');
    expect(notificationTag(parsePush({ kind: 'approval', lane: 'c1' }))).toBe('lane:c1');
  });

  it('the outcome replaces the question: no actions left', () => {
    const built = buildNotification(parsePush({ kind: 'approval', body: 'Run it?', lane: 'c1', picker_id: 'p1' }), ctx);
    const outcome = outcomeNotification('Approved once', 'Run it?', built.options.data, 'picker:p1');
    expect(outcome.title).toBe('Approved once');
    expect(outcome.options.tag).toBe('picker:p1');
    expect(outcome.options.actions).toBeUndefined();
    expect((outcome.options.data as { answers?: unknown }).answers).toBeUndefined();
  });
});
