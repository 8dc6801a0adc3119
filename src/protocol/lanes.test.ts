import { describe, expect, it } from 'vitest';
import { laneAddress, laneOf, laneOfPath, lanePath } from './lanes';

describe('lane addressing (spec README §4)', () => {
  it('keys a lane by thread_id ?? chat_id', () => {
    expect(laneOf({ chat_id: 'c', thread_id: 't' })).toBe('t');
    expect(laneOf({ chat_id: 'c' })).toBe('c');
    expect(laneOf({})).toBeUndefined();
  });

  it('reads every tolerated form of an address', () => {
    expect(laneAddress({ chat_id: 'c', thread_id: 't' })).toEqual({ chat_id: 'c', thread_id: 't', lane: 't' });
    expect(laneAddress({ chat_id: 'c', lane: 't' })).toEqual({ chat_id: 'c', thread_id: 't', lane: 't' });
    expect(laneAddress({ lane: 't' })).toEqual({ chat_id: 't', lane: 't' });
    expect(laneAddress({ chat_id: 'c', lane: 'c' })).toEqual({ chat_id: 'c', lane: 'c' });
    expect(laneAddress({})).toBeUndefined();
  });

  it('writes and reads the route of a lane, threads under their parent', () => {
    const thread = { chat_id: 'web:default', thread_id: 'a/b', lane: 'a/b' };
    expect(lanePath(thread)).toBe('/c/web%3Adefault/t/a%2Fb');
    expect(laneOfPath(lanePath(thread))).toEqual(thread);
    expect(laneOfPath('/c/c1/')).toEqual({ chat_id: 'c1', lane: 'c1' });
    expect(laneOfPath('/c/%E0%A4%A')).toBeUndefined();
    expect(laneOfPath('/settings')).toBeUndefined();
  });
});
