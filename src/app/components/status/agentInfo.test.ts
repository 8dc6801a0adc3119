import { describe, expect, it } from 'vitest';
import { agentInfo, agentLine, agentName, agentSteers } from './agentInfo';
import { bannerMessage } from './connectionBannerText';

describe('the agent behind the gateway (status.session.agent)', () => {
  it('reads name, version, model and problem, bounded, and ignores anything else', () => {
    const hermes = {
      state: 'online',
      session: {
        agent: { kind: 'hermes', name: 'Hermes 0.19.0', version: '0.19.0', model: 'iris-scripted-1', url: 'http://x' },
      },
    };
    expect(agentInfo(hermes)).toEqual({ name: 'Hermes 0.19.0', version: '0.19.0', model: 'iris-scripted-1' });
    expect(agentLine(agentInfo(hermes)!)).toBe('Hermes 0.19.0 · model iris-scripted-1');
    expect(agentInfo({ state: 'online' })).toBeUndefined();
    expect(agentInfo({ state: 'online', session: { agent: { name: 5 } } })).toBeUndefined();
    expect(agentInfo({ state: 'online', session: { agent: 'Hermes' } })).toBeUndefined();
    expect(agentInfo({ state: 'x', session: { agent: { name: 'n'.repeat(500), problem: 'p'.repeat(900) } } })).toEqual({
      name: 'n'.repeat(80),
      problem: 'p'.repeat(300),
    });
  });

  it('steering: only an explicit steer:false says the agent cannot; saying nothing means it can', () => {
    expect(agentSteers({ state: 'online', session: { agent: { kind: 'hermes', name: 'Hermes', steer: false } } })).toBe(
      false,
    );
    expect(agentSteers({ state: 'online', session: { agent: { kind: 'demo', name: 'Iris', steer: true } } })).toBe(
      true,
    );
    expect(agentSteers({ state: 'online', session: { agent: { name: 'Other gateway' } } })).toBe(true);
    expect(agentSteers({ state: 'online', session: { agent: { steer: 'no' } } })).toBe(true);
    expect(agentSteers(undefined)).toBe(true);
  });

  it('a degraded gateway whose agent says why: the banner says it, in the agent’s words', () => {
    expect(
      bannerMessage('online', 'degraded', 'Hermes at http://127.0.0.1:8642 is not reachable (ECONNREFUSED).')?.text,
    ).toBe(
      'The agent cannot answer right now: Hermes at http://127.0.0.1:8642 is not reachable (ECONNREFUSED). Your messages are kept.',
    );
    expect(bannerMessage('online', 'online', 'stale problem')).toBeUndefined();
  });

  it('the name the conversation shows: the gateway’s, without its version; "Hermes" when it names none', () => {
    const status = (agent: Record<string, unknown>) => ({ state: 'online', session: { agent } });
    expect(agentName(status({ kind: 'demo', name: 'Iris demo agent' }))).toBe('Iris demo agent');
    expect(agentName(status({ kind: 'hermes', name: 'Hermes 0.19.0', version: '0.19.0' }))).toBe('Hermes');
    expect(agentName(status({ name: '  ' }))).toBe('Hermes');
    expect(agentName({ state: 'online' })).toBe('Hermes');
    expect(agentName(undefined)).toBe('Hermes');
  });
});
