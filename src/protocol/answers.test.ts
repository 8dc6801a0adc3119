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

  it('takes an answer without an id (protocol.py leaves it out) only where it is never an event, and for the request it names', () => {
    const ask = (type: string, payload: Record<string, unknown> = {}, lane: Record<string, unknown> = {}) =>
      frame<ClientFrame>({ type, id: 4, ...lane, payload });
    const answer = (type: string, payload: Record<string, unknown> = {}, lane: Record<string, unknown> = {}) =>
      frame<ServerFrame>({ type, ...lane, payload });
    expect(answersWithoutId(ask('sync'), answer('sync.done'))).toBe(true);
    expect(answersWithoutId(ask('channel.list'), answer('channel.list'))).toBe(true);
    expect(answersWithoutId(ask('commands.catalog'), answer('commands.catalog'))).toBe(true);
    expect(answersWithoutId(ask('media.pull'), answer('media.pull.end'))).toBe(true);
    // The lane, the query, the prefix, the media_ref: the answer of another request is not this one's.
    const inThread = { chat_id: 'c', thread_id: 't' };
    expect(answersWithoutId(ask('history', {}, inThread), answer('history', {}, inThread))).toBe(true);
    expect(answersWithoutId(ask('history', {}, inThread), answer('history', {}, { chat_id: 't' }))).toBe(true);
    expect(answersWithoutId(ask('history', {}, inThread), answer('history', {}, { chat_id: 'c' }))).toBe(false);
    expect(answersWithoutId(ask('search', { query: 'a' }), answer('search.results', { query: 'a' }))).toBe(true);
    expect(answersWithoutId(ask('search', { query: 'a' }), answer('search.results', { query: 'b' }))).toBe(false);
    expect(
      answersWithoutId(ask('commands.complete', { prefix: '/m' }), answer('commands.complete', { prefix: '/x' })),
    ).toBe(false);
    expect(
      answersWithoutId(ask('media.upload.start', { media_ref: 'r1' }), answer('media.upload.ack', { media_ref: 'r1' })),
    ).toBe(true);
    expect(
      answersWithoutId(ask('media.upload.start', { media_ref: 'r1' }), answer('media.upload.ack', { media_ref: 'r2' })),
    ).toBe(false);
    // Frames that are also events, another request's answer type, an error, or a frame with an id: never.
    expect(answersWithoutId(ask('message.send', { client_id: 'c1' }), answer('message', { client_id: 'c1' }))).toBe(
      false,
    );
    expect(answersWithoutId(ask('channel.create'), answer('channel.created'))).toBe(false);
    expect(answersWithoutId(ask('history'), answer('search.results'))).toBe(false);
    expect(answersWithoutId(ask('sync'), answer('error'))).toBe(false);
    expect(answersWithoutId(ask('sync'), frame<ServerFrame>({ type: 'sync.done', id: 9, payload: {} }))).toBe(false);
  });
});
