import { describe, expect, it } from 'vitest';
import { answersById, answersWithoutId } from './answers';
import type { ClientFrame, ServerFrame } from './frames';

const frame = <T>(f: Record<string, unknown>): T => f as T;

describe('which frames answer requests (spec README §2)', () => {
  const send = frame<ClientFrame>({ type: 'message.send', id: 3, payload: { text: 'hi', client_id: 'c1' } });

  it('settles a request by its answer type or an error with its id, not by another frame reusing the id', () => {
    expect(answersById(send, frame<ServerFrame>({ type: 'message', id: 3, payload: { client_id: 'c1' } }))).toBe(true);
    expect(answersById(send, frame<ServerFrame>({ type: 'error', id: 3, payload: { code: 'bad' } }))).toBe(true);
    expect(answersById(send, frame<ServerFrame>({ type: 'history', id: 3, payload: {} }))).toBe(false);
  });

  it('takes an echo as the answer only of the send with its client_id', () => {
    expect(answersById(send, frame<ServerFrame>({ type: 'message', id: 3, payload: { client_id: 'c2' } }))).toBe(false);
    expect(answersById(send, frame<ServerFrame>({ type: 'message', id: 3, payload: {} }))).toBe(true);
  });

  it('lets sync take a sync.done without an id only when asked to', () => {
    const sync = frame<ClientFrame>({ type: 'sync', id: 4, payload: {} });
    const done = frame<ServerFrame>({ type: 'sync.done', payload: {} });
    expect(answersWithoutId({ frame: sync, matchWithoutId: true }, done)).toBe(true);
    expect(answersWithoutId({ frame: sync, matchWithoutId: false }, done)).toBe(false);
    expect(
      answersWithoutId({ frame: sync, matchWithoutId: true }, frame<ServerFrame>({ type: 'error', payload: {} })),
    ).toBe(false);
  });
});
