import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../../store/schema';
import { landingHref } from './landing';
import {
  blocksGateway,
  codeLoadProblem,
  isCodeLoadFailure,
  NO_ANSWER_MS,
  pairingProblem,
  type PairingAttempt,
} from './problem';

const row = (c: Partial<ChannelRow> & { chat_id: string }, order: number): ChannelRow => ({
  name: c.chat_id,
  kind: 'channel',
  order,
  ...c,
});

describe('landing after pairing', () => {
  const channels = [
    row({ chat_id: 'web:demo' }, 0),
    row({ chat_id: 'web:default', kind: 'default', is_default: true }, 1),
    row({ chat_id: 'web:thr_1', kind: 'thread', parent_chat_id: 'web:demo' }, 2),
    row({ chat_id: 'web:old', archived: true }, 3),
  ];
  it('waits for the directory, then opens the default channel', () => {
    expect(landingHref([])).toBeUndefined();
    expect(landingHref(channels)).toBe('/c/web%3Adefault');
  });
  it('opens the lane the link names (a thread under its channel); an unknown or archived one falls back to the default', () => {
    expect(landingHref(channels, 'web:demo')).toBe('/c/web%3Ademo');
    expect(landingHref(channels, 'web:thr_1')).toBe('/c/web%3Ademo/t/web%3Athr_1');
    expect(landingHref(channels, 'web:nope')).toBe('/c/web%3Adefault');
    expect(landingHref(channels, 'web:old')).toBe('/c/web%3Adefault');
  });
});

describe('pairing problems in words', () => {
  const base: PairingAttempt = {
    url: 'ws://10.0.0.9:9000/ws',
    state: 'connecting',
    waitedMs: 0,
    cspBlocked: false,
    failed: false,
    pageOrigin: 'http://127.0.0.1:8080',
  };
  it('says nothing while the first attempt is under way, or once connected or refused', () => {
    expect(pairingProblem(base)).toBeUndefined();
    expect(pairingProblem({ ...base, state: 'online', cspBlocked: true })).toBeUndefined();
    expect(pairingProblem({ ...base, state: 'auth-failed', failed: true })).toBeUndefined();
  });
  it('a connection the page’s policy blocks: start the server with --gateway', () => {
    expect(pairingProblem({ ...base, cspBlocked: true })).toBe(
      'This server connects only to its own gateway (ws://127.0.0.1:8080/ws): to use ws://10.0.0.9:9000/ws, start the server with --gateway ws://10.0.0.9:9000/ws.',
    );
  });
  it('a failed attempt, or no answer within the time: nothing answers at the address', () => {
    expect(pairingProblem({ ...base, failed: true })).toMatch(/^Nothing answers at ws:\/\/10\.0\.0\.9:9000\/ws\./);
    expect(pairingProblem({ ...base, waitedMs: NO_ANSWER_MS })).toMatch(/^Nothing answers at /);
  });
  it('a socket that opened and was closed at hello: the gateway answered, so the token is the suspect, not the address', () => {
    expect(pairingProblem({ ...base, failed: true, closedAtHello: true })).toBe(
      'The gateway at ws://10.0.0.9:9000/ws answered, then closed the connection when Iris said hello. Check the token: copy it again from where the gateway printed it. Iris keeps trying.',
    );
  });
  it('ws:// from an https page', () => {
    expect(pairingProblem({ ...base, pageOrigin: 'https://iris.example' })).toMatch(
      /use a wss:\/\/ address \(for this server, wss:\/\/iris\.example\/ws\)/,
    );
  });
  it('a chunk that did not load is told apart from a refused address, in each browser’s words', () => {
    expect(
      isCodeLoadFailure(new TypeError('Failed to fetch dynamically imported module: http://x/assets/session-a.js')),
    ).toBe(true);
    expect(isCodeLoadFailure(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isCodeLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isCodeLoadFailure(new Error('The gateway URL must start with wss:// or ws://.'))).toBe(false);
    expect(codeLoadProblem('http://127.0.0.1:8080')).toMatch(
      /^This page's server \(http:\/\/127\.0\.0\.1:8080\) stopped answering.*press Connect again\.$/,
    );
  });
  it('matches a CSP report to the gateway by host', () => {
    expect(blocksGateway('ws://10.0.0.9:9000/ws', 'connect-src', base.url)).toBe(true);
    expect(blocksGateway('ws://10.0.0.9:9001/ws', 'connect-src', base.url)).toBe(false);
    expect(blocksGateway('ws://10.0.0.9:9000/ws', 'img-src', base.url)).toBe(false);
    expect(blocksGateway('inline', 'connect-src', base.url)).toBe(false);
  });
});
