import { describe, expect, it } from 'vitest';
import type { ActivityRow } from '../../../store/schema';
import { activityLabel, thoughtLabel } from './turnLabels';

const tool = (index: number, extra: Partial<ActivityRow> = {}): ActivityRow => ({
  id: `t#1:tool:${index}`,
  lane: 'l',
  turn: 't#1',
  kind: 'tool',
  ts: 1,
  order: index,
  index,
  name: `tool_${index}`,
  ...extra,
});

describe('a turn in one line', () => {
  it('counts the tools, their failures and their time', () => {
    expect(activityLabel([tool(0, { state: 'ok', duration: 0.012 }), tool(1, { state: 'ok', duration: 0.012 })])).toBe(
      'Used 2 tools · 24 ms',
    );
    expect(activityLabel([tool(0, { state: 'failed', duration: 2.5 })])).toBe('Used 1 tool · 1 failed · 2.5 s');
    expect(activityLabel([tool(0, { state: 'ok' })])).toBe('Used 1 tool');
    const note: ActivityRow = { id: 'c', lane: 'l', turn: 't#1', kind: 'commentary', ts: 1, order: 0, text: 'hm' };
    expect(activityLabel([note])).toBe('1 note');
  });
  it('says how long the agent thought, when this device saw it', () => {
    expect(thoughtLabel(2_400)).toBe('Thought for 2 s');
    expect(thoughtLabel(300)).toBe('Thought for a moment');
    expect(thoughtLabel(125_000)).toBe('Thought for 2 min 5 s');
    expect(thoughtLabel(undefined)).toBe('Thought process');
  });
});
