// The tab bus in Node (BroadcastChannel exists there too): calls reach the serving tab, answers and
// typed errors come back, and calls to a leader that went away fail instead of hanging.
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import { electLeader, TabBus, type BusMessage } from './leader';

const buses: TabBus[] = [];
afterEach(() => buses.splice(0).forEach((b) => b.close()));
function bus(name: string, callTimeoutMs?: number): TabBus {
  const b = new TabBus({ channelName: name, callTimeoutMs });
  buses.push(b);
  return b;
}

describe('TabBus', () => {
  it('a follower call runs in the leader and its answer comes back to that follower only', async () => {
    const name = 'bus-' + Math.random();
    const leader = bus(name);
    const follower = bus(name);
    const bystander = bus(name);
    const heard: BusMessage[] = [];
    bystander.listen((m) => heard.push(m));
    leader.serve(async (method, args) => ({ method, args }));
    expect(await follower.call('fetchHistory', ['web:default', 'm1'])).toEqual({
      method: 'fetchHistory',
      args: ['web:default', 'm1'],
    });
    expect(heard.filter((m) => m.t === 'result')).toHaveLength(0); // listeners see no calls or results
  });

  it('errors keep their kind across tabs', async () => {
    const name = 'bus-' + Math.random();
    const leader = bus(name);
    const follower = bus(name);
    const errors = [
      new ProtocolError('rate_limited', 'slow down'),
      new ConnectionLostError('gone'),
      new RequestTimeoutError('search', 15000),
      new Error('plain'),
    ];
    let i = 0;
    leader.serve(async () => {
      throw errors[i++];
    });
    const p = await follower.call('request', []).catch((e: unknown) => e);
    expect(p).toBeInstanceOf(ProtocolError);
    expect(p).toMatchObject({
      code: 'rate_limited',
      detail: 'slow down',
      message: 'slow down',
    });
    expect(await follower.call('request', []).catch((e: unknown) => e)).toBeInstanceOf(ConnectionLostError);
    const timeout = await follower.call('request', []).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(RequestTimeoutError);
    expect((timeout as Error).message).toContain('15 s');
    expect(await follower.call('request', []).catch((e: unknown) => (e as Error).message)).toBe('plain');
  });

  it('a call nobody answers fails after its timeout', async () => {
    const name = 'bus-' + Math.random();
    const follower = bus(name, 200);
    await expect(follower.call('request', [])).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('when the leader changes, calls addressed to the old one fail and new calls reach the new one', async () => {
    const name = 'bus-' + Math.random();
    const old = bus(name);
    const follower = bus(name);
    let oldAnswers = true;
    old.serve(async () => {
      if (oldAnswers) return 'old';
      return new Promise(() => {}); // the old tab dies mid-call
    });
    expect(await follower.call('pull', ['med_1'], false)).toBe('old'); // now addressed to `old`
    oldAnswers = false;
    const lost = follower.call('pull', ['med_1'], false);
    old.close();
    const successor = bus(name);
    successor.serve(async () => 'new');
    await expect(lost).rejects.toBeInstanceOf(ConnectionLostError);
    expect(await follower.call('pull', ['med_1'], false)).toBe('new');
  });

  it('without Web Locks (Node) the only tab leads at once', () => {
    let led = false;
    electLeader('iris-connection:test', () => (led = true));
    expect(led).toBe(true);
  });
});
