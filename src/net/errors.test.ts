import { describe, expect, it } from 'vitest';
import { ProtocolError } from './errors';

describe('ProtocolError: what a person reads for a refusal', () => {
  it("is the gateway's own words when it gave any, on one bounded line", () => {
    expect(new ProtocolError('not_found', 'No turn is in progress in this lane to steer.').message).toBe(
      'No turn is in progress in this lane to steer.',
    );
    expect(new ProtocolError('internal', '  two\n\tlines  ').message).toBe('two lines');
    expect(new ProtocolError('internal', 'x'.repeat(5000)).message).toHaveLength(300);
  });

  it('is our sentence for the code (or for the request) only when the gateway gave none', () => {
    expect(new ProtocolError('not_found', '').message).toBe('That no longer exists on the gateway.');
    expect(new ProtocolError('not_found', '   ', 'picker.select').message).toBe(
      'This question was already answered or has closed.',
    );
    expect(new ProtocolError('teapot', '').message).toBe('The gateway reported an unexpected problem.');
  });
});
