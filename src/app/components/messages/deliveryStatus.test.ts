import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../../../store/schema';
import { isUnsent, shownStatus } from './deliveryStatus';

const message = (extra: Partial<MessageRow> = {}): MessageRow => ({
  message_id: 'm1',
  lane: 'A',
  chat_id: 'A',
  role: 'user',
  text: 'hi',
  ts: 100,
  status: 'sent',
  ...extra,
});

describe('shownStatus', () => {
  it("shows another device's message read once the agent has written after it", () => {
    expect(shownStatus(message(), 101)).toBe('read');
    expect(shownStatus(message(), 100)).toBe('sent');
    expect(shownStatus(message(), 99)).toBe('sent');
    expect(shownStatus(message(), undefined)).toBe('sent');
  });

  it("leaves this device's own sends to the gateway's read receipt", () => {
    expect(shownStatus(message({ sent_here: true }), 101)).toBe('sent');
    expect(shownStatus(message({ sent_here: true, status: 'read' }), undefined)).toBe('read');
  });

  it('changes nothing but a sent message', () => {
    for (const status of ['pending', 'failed', 'read'] as const)
      expect(shownStatus(message({ status }), 101)).toBe(status);
  });
});

describe('isUnsent', () => {
  it('is a message of mine the gateway has not stored: waiting or refused, not one it stored', () => {
    expect(isUnsent(message({ message_id: 'local:c1', status: 'pending' }))).toBe(true);
    expect(isUnsent(message({ message_id: 'local:c1', status: 'failed' }))).toBe(true);
    expect(isUnsent(message({ status: 'sent' }))).toBe(false);
    expect(isUnsent(message({ status: 'pending' }))).toBe(false);
  });
});
