import { describe, expect, it } from 'vitest';
import type { PickerRow } from '../../../store/schema';
import { isCurrentModel, modelValue, pickerOutcome, pickerTitle, typedAnswer } from './pickerText';

const row = (type: PickerRow['type'], payload: Record<string, unknown>): PickerRow =>
  ({ picker_id: 'p', lane: 'l', type, payload: { picker_id: 'p', ...payload }, state: 'open', ts: 1 }) as PickerRow;

describe('pickerTitle', () => {
  it('names each kind by its title, question or a fixed title', () => {
    expect(pickerTitle(row('picker.model', { providers: [] }))).toBe('Choose a model');
    expect(pickerTitle(row('picker.choice', { title: 'Reasoning effort', choices: [] }))).toBe('Reasoning effort');
    expect(pickerTitle(row('picker.choice', { title: '  ', choices: [] }))).toBe('Choose an option');
    expect(pickerTitle(row('picker.clarify', { question: 'Which format?' }))).toBe('Which format?');
    expect(pickerTitle(row('picker.approval', { command: 'ls' }))).toBe('Approve this command?');
    expect(pickerTitle(row('picker.confirm', { title: 'Archive?' }))).toBe('Archive?');
    expect(pickerTitle(row('picker.confirm', {}))).toBe('Are you sure?');
  });

  it("a question without words is asked in the gateway's agent's name", () => {
    expect(pickerTitle(row('picker.clarify', { question: ' ' }), 'Iris demo agent')).toBe(
      'Iris demo agent has a question',
    );
    expect(pickerTitle(row('picker.clarify', {}))).toBe('Hermes has a question');
  });
});

describe('model values', () => {
  it('answers provider:model and finds the current one', () => {
    expect(modelValue('demo', 'iris-demo-1')).toBe('demo:iris-demo-1');
    const payload = { picker_id: 'p', providers: [], current_provider: 'demo', current_model: 'iris-demo-1' };
    expect(isCurrentModel(payload, 'demo', 'iris-demo-1')).toBe(true);
    expect(isCurrentModel(payload, 'local', 'iris-demo-1')).toBe(false);
    expect(isCurrentModel({ picker_id: 'p', providers: [], current_model: 'local:echo' }, 'local', 'echo')).toBe(true);
    expect(isCurrentModel({ picker_id: 'p', providers: [] }, 'demo', 'x')).toBe(false);
  });
});

describe('typedAnswer', () => {
  it('trims and refuses empty answers', () => {
    expect(typedAnswer('  a table please ')).toBe('a table please');
    expect(typedAnswer(' \n ')).toBeUndefined();
  });
});

describe('pickerOutcome', () => {
  const answered = (r: PickerRow, answer: string): PickerRow => ({ ...r, state: 'answered', answer });
  it('says what was asked and what was answered, in words', () => {
    expect(pickerOutcome(answered(row('picker.approval', { command: 'make deploy --prod' }), 'once'))).toEqual({
      question: 'Approval: make deploy --prod',
      answer: 'Approved once',
    });
    expect(pickerOutcome(answered(row('picker.approval', { command: 'rm -rf /' }), 'deny')).answer).toBe('Denied');
    expect(pickerOutcome(answered(row('picker.confirm', { title: 'Archive?' }), 'no'))).toEqual({
      question: 'Archive?',
      answer: 'No',
    });
    const choice = row('picker.choice', { title: 'Effort', choices: [{ value: 'high', label: 'High' }] });
    expect(pickerOutcome(answered(choice, 'high'))).toEqual({ question: 'Effort', answer: 'High' });
    expect(pickerOutcome(answered(row('picker.clarify', { question: 'Which?', choices: [] }), 'my own words'))).toEqual(
      { question: 'Which?', answer: 'my own words' },
    );
    const model = row('picker.model', {
      providers: [{ id: 'demo', label: 'Demo', models: [{ id: 'm1', label: 'Model One' }] }],
    });
    expect(pickerOutcome(answered(model, 'demo:m1'))).toEqual({ question: 'Model', answer: 'Model One' });
  });
  it('a picker closed without an answer from here says so; long text is cut to one line', () => {
    expect(pickerOutcome({ ...row('picker.confirm', { title: 'Sure?' }), state: 'closed' }).answer).toBe('Closed');
    const long = pickerOutcome(answered(row('picker.approval', { command: 'x\n'.repeat(200) }), 'once'));
    expect(long.question.length).toBeLessThanOrEqual(120);
    expect(long.question).not.toContain('\n');
  });
});
