import { describe, expect, it } from 'vitest';
import { cleanCommands, moveActive, pickCommand, slashPrefix } from './slash';
import { agentWorking, composerMode } from './composerMode';

describe('slashPrefix', () => {
  it('opens only while the text is a command name being typed', () => {
    expect(slashPrefix('/')).toBe('/');
    expect(slashPrefix('/cho')).toBe('/cho');
    expect(slashPrefix('/choose ')).toBeUndefined();
    expect(slashPrefix('hi /cho')).toBeUndefined();
    expect(slashPrefix('')).toBeUndefined();
    expect(slashPrefix('//')).toBeUndefined();
  });
});

describe('pickCommand', () => {
  it('writes the command with one slash and a space for its arguments', () => {
    expect(pickCommand({ name: 'choose' })).toBe('/choose ');
    expect(pickCommand({ name: '/remind' })).toBe('/remind ');
  });
});

describe('moveActive', () => {
  it('wraps around both ends and starts from the first or last', () => {
    expect(moveActive(-1, 1, 3)).toBe(0);
    expect(moveActive(-1, -1, 3)).toBe(2);
    expect(moveActive(2, 1, 3)).toBe(0);
    expect(moveActive(0, -1, 3)).toBe(2);
    expect(moveActive(0, 1, 0)).toBe(-1);
  });
});

describe('cleanCommands', () => {
  it('drops malformed and repeated entries and unknown fields', () => {
    expect(
      cleanCommands([
        { name: 'model', description: 'Choose', args_hint: '', extra: 1 },
        { name: '/model' },
        { name: 5 },
        null,
        'x',
        { name: '/' },
        { name: 'remind', description: 7 },
      ]),
    ).toEqual([{ name: 'model', description: 'Choose', args_hint: '' }, { name: 'remind' }]);
  });
});

describe('composerMode', () => {
  it('sends when idle, stops when working with no text, steers when working with text', () => {
    expect(composerMode(false, '')).toBe('send');
    expect(composerMode(false, 'hi')).toBe('send');
    expect(composerMode(true, '  ')).toBe('stop');
    expect(composerMode(true, 'faster')).toBe('steer');
  });

  it('an agent that cannot be steered: text typed while it works is sent (queued), empty still stops', () => {
    expect(composerMode(true, 'faster', false)).toBe('send');
    expect(composerMode(true, ' ', false)).toBe('stop');
    expect(composerMode(false, 'hi', false)).toBe('send');
  });

  it('files waiting while it works: a steer cannot carry them, so the message goes (queued), text or not', () => {
    expect(composerMode(true, 'here it is', true, true)).toBe('send');
    expect(composerMode(true, '', true, true)).toBe('send');
  });

  it('does not count waiting for a picker answer as working', () => {
    expect(agentWorking({ busy: true, busyReason: 'waiting_input' })).toBe(false);
    expect(agentWorking({ busy: true, busyReason: 'processing' })).toBe(true);
    expect(agentWorking({ busy: true })).toBe(true);
    expect(agentWorking({ busy: false })).toBe(false);
    expect(agentWorking(undefined)).toBe(false);
    // A gateway that never says busy: typing, or a reply streaming, is the agent at work.
    expect(agentWorking({ busy: false, typing: true })).toBe(true);
    expect(agentWorking({ busy: false }, { role: 'assistant', status: 'streaming' })).toBe(true);
    expect(agentWorking({ busy: false }, { role: 'assistant', status: 'final' })).toBe(false);
    expect(agentWorking({ busy: true, busyReason: 'waiting_input', typing: true })).toBe(false);
  });
});
