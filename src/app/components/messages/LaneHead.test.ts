// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { MessageRow, PickerRow } from '../../../store/schema';
import { showLaneHead } from './LaneHead';
import { dayLabel } from './time';

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
    // Bold drawn bold (its width is the lane's), from text: the gateway's `<img>` stays words.
    expect(text(messages[0]!.querySelector('strong'))).toBe('tomorrow');
    expect(text(messages[1]!.querySelector('.lane-head-name'))).toBe('Hermes');
    expect(text(messages[1]!.querySelector('.lane-head-md'))).toContain('<img src=x');
    expect(main.querySelector('img')).toBeNull();
    // Its controls are drawn, not live: nothing to focus or press before the lane is there.
    expect(parent.querySelector('button, textarea, input, a')).toBeNull();

    expect(view.lane).toBe(LANE);
    view.remove();
    expect(parent.querySelector('.lane-head')).toBeNull();
  });

  it('draws the day’s line between two messages of different days, as the lane does, and none within a day', () => {
    const parent = document.createElement('div');
    const at = (day: number, hour: number) => new Date(2020, 11, day, hour).getTime();
    const messages = [
      { ...row(1, 'user', 'late question'), ts: at(4, 23) },
      { ...row(2, 'assistant', 'late answer'), ts: at(4, 23) + 60_000 },
      { ...row(3, 'user', 'morning question'), ts: at(5, 8) },
      { ...row(4, 'assistant', 'morning answer'), ts: at(5, 8) + 60_000 },
    ];
    showLaneHead({ lane: LANE, channel: undefined, messages, gatewayStatus: undefined }, parent);
    const items = [...parent.querySelectorAll('.lane-head-list > li:not(.lane-head-start)')].map((li) =>
      li.classList.contains('lane-head-day') ? `— ${text(li)} —` : text(li.querySelector('.lane-head-md')),
    );
    // The lane's own words for the day (an older year's date here).
    expect(items).toEqual([
      `— ${dayLabel(at(4, 23))} —`,
      'late question',
      'late answer',
      `— ${dayLabel(at(5, 8))} —`,
      'morning question',
      'morning answer',
    ]);
    expect(dayLabel(at(5, 8))).toMatch(/2020/);
  });

  it('starts a short lane drawn whole with the lane’s beginning line and its first day, and a cut or long one without', () => {
    const drawn = (messages: MessageRow[]) => {
      const parent = document.createElement('div');
      showLaneHead({ lane: LANE, channel: undefined, messages, gatewayStatus: undefined }, parent);
      return [...parent.querySelectorAll('.lane-head-list > li')]
        .slice(0, 2)
        .map((li) => `${li.className}: ${text(li)}`);
    };
    const few = [row(1, 'user', 'hi'), row(2, 'assistant', 'hello')];
    expect(drawn(few)).toEqual([
      'lane-head-start: This is the beginning of the conversation.',
      `lane-head-day: ${dayLabel(few[0]!.ts)}`,
    ]);
    // Fewer than a long lane's, but more than a screen holds: the oldest are not drawn, nor the lines above them.
    const big = Array.from({ length: 5 }, (_, i) => row(i + 1, 'assistant', `answer ${i + 1} ${'word '.repeat(900)}`));
    expect(drawn(big).every((li) => li.startsWith('lane-head-msg'))).toBe(true);
    const many = Array.from({ length: 12 }, (_, i) => row(i + 1, 'user', `question ${i + 1}`));
    expect(drawn(many).every((li) => li.startsWith('lane-head-msg'))).toBe(true);
  });

  it('draws the questions the lane keeps, answered or closed, after the messages before them, as the lane words them', () => {
    const picker = (n: number, at: number, fields: Partial<PickerRow>): PickerRow => ({
      picker_id: `p${n}`,
      lane: LANE,
      type: 'picker.approval',
      payload: { picker_id: `p${n}`, chat_id: LANE, command: `make deploy ${n}` } as PickerRow['payload'],
      state: 'answered',
      answer: 'once',
      ts: at,
      ...fields,
    });
    const drawn = (messages: MessageRow[], pickers: PickerRow[]) => {
      const parent = document.createElement('div');
      showLaneHead({ lane: LANE, channel: undefined, messages, gatewayStatus: undefined, pickers }, parent);
      return [...parent.querySelectorAll('.lane-head-list > li:not(.lane-head-start, .lane-head-day)')].map((li) =>
        li.classList.contains('lane-head-picker')
          ? `card ${text(li)}${li.querySelector('.closed') ? ' (muted)' : ''}`
          : text(li.querySelector('.lane-head-md, .lane-head-bubble')),
      );
    };
    const few = [row(1, 'user', '/approve'), row(2, 'assistant', 'Deployed.'), row(3, 'user', 'again?')];
    expect(
      drawn(few, [
        picker(1, few[0]!.ts + 1, {}),
        picker(2, few[2]!.ts, {
          state: 'closed',
          answer: undefined,
          type: 'picker.confirm',
          payload: { title: 'Sure?' } as PickerRow['payload'],
        }),
      ]),
    ).toEqual([
      '/approve',
      'card Approval: make deploy 1→Approved once',
      'Deployed.',
      'again?',
      'card Sure?→Closed (muted)',
    ]);
    // Drawn from its start, a lane shows a question asked before its first message first; a lane cut to a
    // screenful does not draw one asked before the first message it shows (it is above the screen).
    expect(drawn(few, [picker(1, few[0]!.ts - 1, {})])[0]).toBe('card Approval: make deploy 1→Approved once');
    const many = Array.from({ length: 12 }, (_, i) => row(i + 1, 'user', `question ${i + 1}`));
    expect(drawn(many, [picker(1, many[0]!.ts - 1, {})]).some((line) => line.startsWith('card'))).toBe(false);
    expect(drawn(many, [picker(1, many[11]!.ts + 1, {})]).at(-1)).toBe('card Approval: make deploy 1→Approved once');
  });

  it('gives a question asked on a day of its own that day’s line, and the message after it the next day’s', () => {
    const at = (day: number, hour: number) => new Date(2020, 11, day, hour).getTime();
    const messages = [
      { ...row(1, 'user', 'deploy?'), ts: at(3, 9) },
      { ...row(2, 'assistant', 'deployed'), ts: at(3, 10) },
      { ...row(3, 'user', 'and now?'), ts: at(5, 9) },
    ];
    const asked: PickerRow = {
      picker_id: 'p1',
      lane: LANE,
      type: 'picker.confirm',
      payload: { picker_id: 'p1', title: 'Run the backup?' } as PickerRow['payload'],
      state: 'answered',
      answer: 'yes',
      ts: at(4, 3),
    };
    const parent = document.createElement('div');
    showLaneHead({ lane: LANE, channel: undefined, messages, gatewayStatus: undefined, pickers: [asked] }, parent);
    expect(
      [...parent.querySelectorAll('.lane-head-list > li:not(.lane-head-start)')].map((li) =>
        li.classList.contains('lane-head-day') ? `day ${text(li)}` : text(li.querySelector('.lane-head-md') ?? li),
      ),
    ).toEqual([
      `day ${dayLabel(at(3, 9))}`,
      'deploy?',
      'deployed',
      `day ${dayLabel(at(4, 3))}`,
      'Run the backup?→Yes',
      `day ${dayLabel(at(5, 9))}`,
      'and now?',
    ]);
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
    const shown = [...parent.querySelectorAll('.lane-head-md')].map((p) => text(p).split(' ').slice(0, 2).join(' '));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(12);
    expect(shown.at(-1)).toBe('answer 12');
    // A reply whose 300-line code block shows 20 lines weighs those: the messages before it fill the screen too.
    const file = Array.from({ length: 300 }, (_, i) => `export const value${i} = compute(${i});`).join('\n');
    const withFile = [
      ...Array.from({ length: 6 }, (_, i) => row(i + 1, i % 2 ? 'assistant' : 'user', `message ${i + 1}`)),
      row(7, 'assistant', `Here is big.ts:\n\n\`\`\`ts\n${file}\n\`\`\``),
    ];
    const fileParent = document.createElement('div');
    showLaneHead({ lane: LANE, channel: undefined, messages: withFile, gatewayStatus: undefined }, fileParent);
    expect(fileParent.querySelectorAll('.lane-head-msg')).toHaveLength(7);
    // A long lane still starts from its newest at the bottom, not from the top as a short one does.
    expect(parent.querySelector('.lane-head-list')!.classList.contains('lane-head-short')).toBe(false);
  });
});

describe('a message in the lane head', () => {
  const shown = (message: MessageRow) => {
    const parent = document.createElement('div');
    showLaneHead({ lane: LANE, channel: undefined, messages: [message], gatewayStatus: undefined }, parent);
    return parent.querySelector('.lane-head-msg')!;
  };

  it('has the blocks the lane will draw: paragraphs, a list, a code box with its language and Copy', () => {
    const item = shown(
      row(1, 'assistant', '**Echo:** hi\n\nTwo things:\n- one\n- two\n\n```js\nconst a = 1;\n```\n\n— Hermes'),
    );
    const blocks = [...item.querySelector('.lane-head-md')!.children].map((el) => el.className);
    expect(blocks).toEqual(['lane-head-p', 'lane-head-p', 'lane-head-items', 'lane-head-code', 'lane-head-p']);
    expect(text(item.querySelector('.lane-head-p'))).toBe('Echo: hi');
    expect([...item.querySelectorAll('li')].map(text)).toEqual(['one', 'two']);
    const nested = shown(row(2, 'assistant', '3. Step\n   - detail\n\n4. Next'));
    const outer = nested.querySelector('ol.lane-head-items')!;
    expect(outer.getAttribute('start')).toBe('3');
    expect(outer.classList.contains('lane-head-loose')).toBe(true);
    expect(text(outer.querySelector('li > ul > li'))).toBe('detail');
    expect(text(item.querySelector('.lane-head-code-lang'))).toBe('js');
    expect(text(item.querySelector('.lane-head-copy'))).toBe('Copy code');
    expect(text(item.querySelector('.lane-head-code code'))).toBe('const a = 1;');
    expect(item.querySelector('.lane-head-more')).toBeNull();
  });

  it('draws links as the lane will, as words: nothing in the head can be followed', () => {
    const item = shown(row(1, 'assistant', 'Read [the guide](https://example.com/guide) or https://example.org.'));
    expect([...item.querySelectorAll('.lane-head-link')].map(text)).toEqual(['the guide', 'https://example.org']);
    expect(text(item.querySelector('.lane-head-p'))).toBe('Read the guide or https://example.org.');
    expect(item.querySelector('a, [href]')).toBeNull();
  });

  it('marks the person’s messages as the lane will: waiting, sent, read (answered after, or read here), none when failed', () => {
    const parent = document.createElement('div');
    const user = (n: number, status: MessageRow['status'], extra: Partial<MessageRow> = {}) => ({
      ...row(n, 'user', `m${n}`),
      status,
      ...extra,
    });
    showLaneHead(
      {
        lane: LANE,
        channel: undefined,
        messages: [
          user(1, 'sent'), // answered below: read
          row(2, 'assistant', 'answer'),
          user(3, 'read'),
          user(4, 'sent', { sent_here: true }), // sent from here, not read yet
          user(5, 'sent'), // after the newest answer
          user(6, 'pending'),
          user(7, 'failed'),
        ],
        gatewayStatus: undefined,
      },
      parent,
    );
    const marks = [...parent.querySelectorAll('.lane-head-user .lane-head-foot')].map((foot) => {
      const mark = foot.querySelector('.lane-head-delivery');
      return mark
        ? `${mark.classList.contains('read') ? 'read' : 'muted'} ${mark.querySelector('svg')!.getAttribute('width')}`
        : 'none';
    });
    // The lane's icons: ✓✓ 20 px wide, ✓ and the clock 14.
    expect(marks).toEqual(['read 20', 'read 20', 'muted 14', 'muted 14', 'muted 14', 'none']);
  });

  it('shows the turn line above a reply with reasoning, and none without', () => {
    expect(
      text(
        shown({ ...row(1, 'assistant', 'hi'), reasoning: 'hmm', thought_ms: 2_000 }).querySelector('.lane-head-turn'),
      ),
    ).toBe('Thought for 2 s');
    expect(shown(row(1, 'assistant', 'hi')).querySelector('.lane-head-turn')).toBeNull();
  });

  it('says Stopped under a reply the person stopped, as the lane does, and nothing under one still streaming', () => {
    const stopped = { ...row(1, 'assistant', 'Line 1'), stopped: true };
    expect(text(shown(stopped).querySelector('.lane-head-stopped'))).toBe('Stopped');
    expect(shown({ ...stopped, status: 'streaming' }).querySelector('.lane-head-stopped')).toBeNull();
    expect(shown(row(1, 'assistant', 'Line 1')).querySelector('.lane-head-stopped')).toBeNull();
  });

  it('draws the box of each picture and video where the lane will, at its stored size, and a file’s chip', () => {
    const parent = document.createElement('div');
    const ref = (id: string, kind: 'image' | 'video' | 'voice') => ({
      media_id: id,
      kind,
      mime: 'x/y',
      size: 1,
      filename: id,
    });
    showLaneHead(
      {
        lane: LANE,
        channel: undefined,
        messages: [
          { ...row(1, 'user', ''), media: [ref('mine', 'image')] },
          {
            ...row(2, 'assistant', 'Here it is'),
            media: [ref('pic', 'image'), ref('clip', 'video'), ref('v', 'voice')],
          },
        ],
        gatewayStatus: undefined,
        media: { mine: { width: 1000, height: 500 }, pic: { width: 64, height: 64 } },
      },
      parent,
    );
    const [mine, reply] = [...parent.querySelectorAll('.lane-head-msg')];
    const boxes = (m: Element | undefined) =>
      [...(m?.querySelectorAll<HTMLElement>('.lane-head-picture') ?? [])].map((b) => [
        b.style.width,
        b.style.aspectRatio,
      ]);
    // In the bubble, with no text under it (the lane shows none); sized as mediaBox sizes the lane's.
    expect(boxes(mine)).toEqual([['320px', '1000 / 500']]);
    expect(mine!.querySelector('.lane-head-md')).toBeNull();
    // After the text; a small drawing twice its size; a video of unknown size at the default; a voice message's chip.
    expect(reply!.lastElementChild?.classList.contains('lane-head-media')).toBe(true);
    expect(boxes(reply)).toEqual([
      ['128px', '64 / 64'],
      ['320px', '320 / 180'],
    ]);
    expect(reply!.querySelectorAll('.lane-head-media > .lane-head-chip')).toHaveLength(1);
  });

  it('says what the turn did on the line, from its activity: tools, failures, their time, notes', () => {
    const parent = document.createElement('div');
    const reply = (n: number, turn: string) => ({ ...row(n, 'assistant', `reply ${n}`), turn });
    showLaneHead(
      {
        lane: LANE,
        channel: undefined,
        messages: [{ ...reply(1, 't1'), reasoning: 'hmm' }, reply(2, 't2'), reply(3, 't3')],
        gatewayStatus: undefined,
        activity: {
          t1: [
            { kind: 'tool', state: 'ok', duration: 0.012 },
            { kind: 'tool', state: 'failed', duration: 0.012 },
          ],
          t2: [{ kind: 'commentary' }, { kind: 'commentary' }, { kind: 'commentary' }],
        },
      },
      parent,
    );
    const lines = [...parent.querySelectorAll('.lane-head-msg')].map((m) =>
      [...(m.querySelector('.lane-head-turn')?.children ?? [])].map(text),
    );
    expect(lines).toEqual([['Thought process', 'Used 2 tools · 1 failed · 24 ms'], ['3 notes'], []]);
    // Each word has its chevron, as the lane's buttons do: the line wraps where the lane's will.
    expect(parent.querySelectorAll('.lane-head-turn .lane-head-chevron')).toHaveLength(3);
  });

  it('cuts a long code block to its first 20 lines with "Show all", as the lane does', () => {
    const code = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n');
    const item = shown(row(1, 'assistant', `\`\`\`\n${code}\n\`\`\``));
    expect(text(item.querySelector('.lane-head-code code')).split('\n')).toHaveLength(20);
    expect(text(item.querySelector('.lane-head-code .lane-head-more'))).toBe('Show all 60 lines');
  });

  it('previews the person’s own long paste by its first lines and one "Show all" for the message', () => {
    const code = Array.from({ length: 60 }, (_, i) => `console.log(${i + 1});`).join('\n');
    const item = shown(row(1, 'user', `\`\`\`js\n${code}\n\`\`\``));
    const more = [...item.querySelectorAll('.lane-head-more')].map(text);
    expect(more).toEqual(['Show all 62 lines']);
    expect(text(item.querySelector('.lane-head-code code')).split('\n')).toHaveLength(20);
    const prose = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join('\n');
    const paste = shown(row(2, 'user', prose));
    expect(text(paste.querySelector('.lane-head-p')).split('\n')).toEqual([
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      'line 6',
    ]);
    expect(text(paste.querySelector('.lane-head-more'))).toBe('Show all 80 lines');
    // One line too long to show: named by its characters, as the lane names it.
    const blob = shown(row(3, 'user', 'QUJD'.repeat(5_000)));
    expect(text(blob.querySelector('.lane-head-more'))).toBe('Show all 20,000 characters');
  });

  it('shows the end of a long reply, from a paragraph, as the lane scrolled to its newest shows it', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}: ${'words '.repeat(49)}`);
    const item = shown(row(1, 'assistant', paragraphs.join('\n\n')));
    const drawn = [...item.querySelectorAll('.lane-head-p')].map(text);
    expect(drawn.at(-1)).toBe(paragraphs.at(-1)!.trim());
    expect(drawn[0]).not.toBe(paragraphs[0]!.trim());
    expect(drawn.join('').length).toBeLessThan(paragraphs.join('').length);
    // A screenful (happy-dom's window: 1024 × 768) at least.
    expect(drawn.join('').length).toBeGreaterThanOrEqual((1024 / 7) * (768 / 20) - 300);
    expect(text(item.querySelector('.lane-head-name'))).toBe('Hermes');
  });

  it('previews a huge reply by its first 40 lines, at most 2,000 characters, with "Show all", as the lane does', () => {
    const log = Array.from({ length: 3_000 }, (_, i) => `log line ${i + 1} with some words`).join('\n');
    const item = shown(row(1, 'assistant', log));
    const drawn = text(item.querySelector('.lane-head-md'));
    expect(drawn.startsWith('log line 1 with')).toBe(true);
    expect(drawn.length).toBeLessThan(2_100);
    expect(text(item.querySelector('.lane-head-more'))).toBe('Show all 3,000 lines');
  });

  it('cuts a code block of one huge line as the lane does, named by its characters', () => {
    const json = `{${Array.from({ length: 6_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const item = shown(row(1, 'assistant', `Minified:\n\n\`\`\`json\n${json}\n\`\`\``));
    expect(text(item.querySelector('.lane-head-code code')).length).toBeLessThanOrEqual(2_001);
    expect(text(item.querySelector('.lane-head-code-more'))).toBe(
      `Show all ${json.length.toLocaleString('en-US')} characters`,
    );
    expect(text(item.querySelector('.lane-head-p'))).toBe('Minified:');
  });
});
