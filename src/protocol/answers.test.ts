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
    expect(answersWithoutId(ask('history'), answer('search.results'))).toBe(false);
    expect(answersWithoutId(ask('sync'), answer('error'))).toBe(false);
    expect(answersWithoutId(ask('sync'), frame<ServerFrame>({ type: 'sync.done', id: 9, payload: {} }))).toBe(false);
  });

  it('takes a channel broadcast without an id (protocol.py gives it none) as the answer of the request it describes', () => {
    const ask = (type: string, payload: Record<string, unknown>, chat?: string) =>
      frame<ClientFrame>({ type, id: 5, ...(chat !== undefined && { chat_id: chat }), payload });
    const said = (type: string, payload: Record<string, unknown>) => frame<ServerFrame>({ type, payload });
    const create = ask('channel.create', { name: 'Trips', kind: 'channel' });
    expect(answersWithoutId(create, said('channel.created', { chat_id: 'n1', name: 'Trips', kind: 'channel' }))).toBe(
      true,
    );
    // Another name (another device's create), a thread the agent opened on its own: not this one's answer.
    expect(answersWithoutId(create, said('channel.created', { chat_id: 'n2', name: 'Work', kind: 'channel' }))).toBe(
      false,
    );
    expect(
      answersWithoutId(create, said('channel.created', { chat_id: 'n3', name: 'Trips', kind: 'channel', auto: true })),
    ).toBe(false);
    // The renamed entry answers a rename, a favorite, an icon or a default of that channel, when it says what was asked.
    const entry = { chat_id: 'c1', name: 'Trips', favorite: true, icon: '✈️', is_default: true };
    expect(answersWithoutId(ask('channel.rename', { name: 'Trips' }, 'c1'), said('channel.renamed', entry))).toBe(true);
    expect(answersWithoutId(ask('channel.rename', { name: 'Holidays' }, 'c1'), said('channel.renamed', entry))).toBe(
      false,
    );
    expect(answersWithoutId(ask('channel.rename', { name: 'Trips' }, 'c2'), said('channel.renamed', entry))).toBe(
      false,
    );
    expect(answersWithoutId(ask('channel.favorite', { favorite: true }, 'c1'), said('channel.renamed', entry))).toBe(
      true,
    );
    expect(answersWithoutId(ask('channel.favorite', { favorite: false }, 'c1'), said('channel.renamed', entry))).toBe(
      false,
    );
    expect(answersWithoutId(ask('channel.icon', { icon: '✈️' }, 'c1'), said('channel.renamed', entry))).toBe(true);
    expect(answersWithoutId(ask('channel.icon', { icon: '🏠' }, 'c1'), said('channel.renamed', entry))).toBe(false);
    expect(answersWithoutId(ask('channel.set_default', {}, 'c1'), said('channel.renamed', entry))).toBe(true);
    expect(
      answersWithoutId(ask('channel.set_default', {}, 'c1'), said('channel.renamed', { ...entry, is_default: false })),
    ).toBe(false);
    expect(answersWithoutId(ask('channel.delete', {}, 'c1'), said('channel.deleted', { chat_id: 'c1' }))).toBe(true);
    expect(answersWithoutId(ask('channel.delete', {}, 'c1'), said('channel.deleted', { chat_id: 'c2' }))).toBe(false);
    // With an id it is matched by the id alone, as any answer.
    expect(
      answersWithoutId(create, frame<ServerFrame>({ type: 'channel.created', id: 5, payload: { name: 'Trips' } })),
    ).toBe(false);
  });
});
