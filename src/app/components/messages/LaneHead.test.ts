// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../../../store/schema';
import { showLaneHead } from './LaneHead';

const LANE = 'web:default';
const row = (n: number, role: MessageRow['role'], text: string): MessageRow => ({
  message_id: `m${n}`,
  lane: LANE,
  chat_id: LANE,
  role,
  text,
  ts: 1_700_000_000_000 + n * 60_000,
  status: 'final',
});
const text = (el: Element | null | undefined) => el?.textContent?.trim() ?? '';

describe('the lane head', () => {
  it('shows the lane as it will look: its channel in the top bar, the agent’s lines under its name, the person’s in bubbles, as text', () => {
    const parent = document.createElement('div');
    const view = showLaneHead(
      {
        lane: LANE,
        channel: { chat_id: LANE, name: 'General', kind: 'default', order: 0 },
        messages: [
          row(1, 'user', 'Plan for **tomorrow**?'),
          row(2, 'assistant', 'Standup at 9 <img src=x onerror="window.headXss=1">'),
        ],
        gatewayStatus: undefined,
      },
      parent,
    );
    const main = parent.querySelector('main[aria-label="Conversation (loading)"]')!;
    expect(text(main.querySelector('.lane-head-title'))).toBe('General');
    const messages = [...main.querySelectorAll('.lane-head-msg')];
    expect(messages.map((m) => m.classList.contains('lane-head-user'))).toEqual([true, false]);
    expect(text(messages[0]!.querySelector('.lane-head-bubble'))).toBe('Plan for tomorrow?'); // the marks off, as text
    expect(text(messages[1]!.querySelector('.lane-head-name'))).toBe('Hermes');
    expect(text(messages[1]!.querySelector('.lane-head-text'))).toContain('<img src=x');
    expect(main.querySelector('img, strong')).toBeNull();
    // Its controls are drawn, not live: nothing to focus or press before the lane is there.
    expect(parent.querySelector('button, textarea, input, a')).toBeNull();

    expect(view.lane).toBe(LANE);
    view.remove();
    expect(parent.querySelector('.lane-head')).toBeNull();
  });

  it('is titled "Conversation" for a lane with no channel stored, and names the agent as its gateway does', () => {
    const parent = document.createElement('div');
    showLaneHead(
      {
        lane: 'web:nowhere',
        channel: undefined,
        messages: [row(1, 'assistant', 'hi')],
        gatewayStatus: { state: 'online', session: { agent: { name: 'Iris demo agent' } } },
      },
      parent,
    );
    expect(text(parent.querySelector('.lane-head-title'))).toBe('Conversation');
    expect(text(parent.querySelector('.lane-head-name'))).toBe('Iris demo agent');
  });

  it('lays out only the newest messages that fill the screen, the newest always', () => {
    const parent = document.createElement('div');
    const long = Array.from({ length: 12 }, (_, i) =>
      row(i + 1, 'assistant', `answer ${i + 1} ${'word '.repeat(400)}`),
    );
    showLaneHead({ lane: LANE, channel: undefined, messages: long, gatewayStatus: undefined }, parent);
    const shown = [...parent.querySelectorAll('.lane-head-text')].map((p) => text(p).split(' ').slice(0, 2).join(' '));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(12);
    expect(shown.at(-1)).toBe('answer 12');
    // A long lane still starts from its newest at the bottom, not from the top as a short one does.
    expect(parent.querySelector('.lane-head-list')!.classList.contains('lane-head-short')).toBe(false);
  });
});
