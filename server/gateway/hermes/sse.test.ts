import { describe, expect, it } from 'vitest';
import { parseHermesEvent } from './events';
import { SseParser } from './sse';
import { loadFixture } from './testing/replay';

describe('SSE parser', () => {
  it('reads a recorded Hermes stream fed one byte at a time exactly as fed whole', () => {
    const { sse } = loadFixture('approval-once');
    const whole = new SseParser().push(sse);
    const bytes = new TextEncoder().encode(sse);
    const parser = new SseParser();
    const byByte = [...bytes].flatMap((b) => parser.push(new Uint8Array([b])));
    expect(byByte).toEqual(whole);
    expect(whole.map((e) => parseHermesEvent(e.data).event)).toEqual([
      'tool.started',
      'approval.request',
      'approval.responded',
      'tool.completed',
      'message.delta',
      'message.delta',
      'message.delta',
      'reasoning.available',
      'run.completed',
    ]);
  });

  it('joins multi-line data, accepts CRLF and CR, skips comments, keeps id and event, drops a partial event at the end', () => {
    const p = new SseParser();
    const events = p.push(
      ': keepalive\r\n\r\nid: 7\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\ndata:c\r\rdata: {"event": "run.cancelled"}\n\ndata: partial',
    );
    expect(events).toEqual([
      { data: 'a\nb', event: 'x', id: '7' },
      { data: 'c', id: '7' },
      { data: '{"event": "run.cancelled"}', id: '7' },
    ]);
    expect(p.push('')).toEqual([]);
  });

  it('malformed or hostile event data becomes "malformed" or a bounded, checked event', () => {
    expect(parseHermesEvent('{not json').event).toBe('malformed');
    expect(parseHermesEvent('[1,2]').event).toBe('malformed');
    expect(parseHermesEvent('{"no": "event"}').event).toBe('malformed');
    expect(parseHermesEvent('{"event": "subagent.start"}')).toEqual({ event: 'unknown', name: 'subagent.start' });
    expect(parseHermesEvent('{"event": "message.delta", "delta": 5}')).toEqual({ event: 'message.delta', delta: '' });
    expect(parseHermesEvent('{"event": "tool.completed", "tool": "t", "duration": -1, "error": "yes"}')).toEqual({
      event: 'tool.completed',
      tool: 't',
      error: false,
    });
    expect(
      parseHermesEvent('{"event": "approval.request", "command": "x", "choices": ["once", "<b>", "deny", 3]}'),
    ).toMatchObject({ choices: ['once', 'deny'] });
    expect(parseHermesEvent('{"event": "approval.request", "command": "x"}')).toMatchObject({
      choices: ['once', 'deny'],
    });
    expect(parseHermesEvent(JSON.stringify({ event: 'run.failed', error: 'e'.repeat(5000) }))).toMatchObject({
      error: 'e'.repeat(2000),
    });
  });
});
