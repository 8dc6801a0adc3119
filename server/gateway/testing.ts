// The gateway tests' fixture: a fresh gateway before each test, devices paired on it, every client and
// the gateway closed after it. Call useGateway() at the top of a test file (it registers the hooks).
import { afterEach, beforeEach } from 'vitest';
import type { GatewayOptions } from './options';
import { startGateway, type StandaloneGateway } from './standalone';
import { TestClient, type HelloOptions } from './testclient';

export interface GatewayFixture {
  /** The gateway of the running test. */
  readonly gw: StandaloneGateway;
  /** A client paired as this device (hello options beyond the token and device id may be given). */
  device(id: string, hello?: Omit<HelloOptions, 'token' | 'device_id'>): Promise<TestClient>;
  /** A client connected but not paired (it says hello itself). */
  connect(): Promise<TestClient>;
  /** Close this test's gateway and start it again with these options changed (same token). */
  restart(changes: Partial<GatewayOptions>): Promise<StandaloneGateway>;
}

export function useGateway(options: GatewayOptions & { port?: number }): GatewayFixture {
  let gw: StandaloneGateway | undefined;
  const clients: TestClient[] = [];
  beforeEach(async () => {
    gw = await startGateway(options);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await gw?.close();
    gw = undefined;
  });
  const fixture: GatewayFixture = {
    get gw() {
      if (!gw) throw new Error('useGateway: the gateway runs only inside a test');
      return gw;
    },
    async device(id, hello = {}) {
      const c = await TestClient.paired(fixture.gw.url, { ...hello, token: options.token, device_id: id });
      clients.push(c);
      return c;
    },
    async connect() {
      const c = await TestClient.connect(fixture.gw.url);
      clients.push(c);
      return c;
    },
    async restart(changes) {
      await gw?.close();
      gw = await startGateway({ ...options, ...changes, token: options.token });
      return gw;
    },
  };
  return fixture;
}
