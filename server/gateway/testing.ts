// The gateway tests' fixture: a fresh gateway before each test (or one for the file), devices paired on it,
// every client and gateway closed after it. Call useGateway() at the top of a test file (it registers the hooks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { GatewayOptions } from './options';
import { startGateway, type StandaloneGateway } from './standalone';
import { TestClient, type HelloOptions } from './testclient';
import type { PushPayload, PushTarget } from './types';

export interface FixtureOptions extends GatewayOptions {
  port?: number;
  /** 'each' (default): a fresh gateway per test; 'file': one gateway for the whole file (beforeAll). */
  per?: 'each' | 'file';
  /** false: the test starts its gateway itself with restart() (to prepare the data dir first, or pick options). */
  startBeforeEach?: boolean;
  /** Install a push sink that records every wake-up in fixture.pushed. */
  recordPushes?: boolean;
  /**
   * A fresh temporary directory per test (fixture.tempDir), removed after it, as the gateway's dataDir and kept
   * across restart(). true: the directory itself; a relative path: that path inside it.
   */
  tempDataDir?: true | string;
}

/** What restart() and startAnother() may change: the gateway's options, and its port (to come back on the same one). */
type GatewayChanges = Partial<GatewayOptions> & { port?: number };

interface Pushed {
  target: PushTarget;
  payload: PushPayload;
}

export interface GatewayFixture {
  /** The gateway of the running test. */
  readonly gw: StandaloneGateway;
  /** A client paired as this device (hello options beyond the token and device id may be given). */
  device(id: string, hello?: Omit<HelloOptions, 'token' | 'device_id'>): Promise<TestClient>;
  /** A client connected but not paired (it says hello itself). */
  connect(): Promise<TestClient>;
  /** Close this test's gateway, if one runs, and start it again with these options changed (same token and data dir). */
  restart(changes?: GatewayChanges): Promise<StandaloneGateway>;
  /** Close this test's gateway (to change its data dir while it is down); restart() starts it again. */
  stop(): Promise<void>;
  /** Start a second gateway beside this test's one, on the same options with these changed; closed after the test. */
  startAnother(changes?: GatewayChanges): Promise<StandaloneGateway>;
  /** The gateway's log lines in this test (they also go to options.log). */
  readonly logs: string[];
  /** With recordPushes: every wake-up the gateway sent in this test. */
  readonly pushed: Pushed[];
  /** With recordPushes: from now on in this test the sink records, then throws. */
  failPushes(): void;
  /** With tempDataDir: this test's temporary directory, and the gateway's dataDir inside it. */
  readonly tempDir: string;
  readonly dataDir: string;
}

export function useGateway(options: FixtureOptions): GatewayFixture {
  const { per = 'each', startBeforeEach = true, recordPushes = false, tempDataDir, ...gatewayOptions } = options;
  let gw: StandaloneGateway | undefined;
  const others: StandaloneGateway[] = [];
  const clients: TestClient[] = [];
  const logs: string[] = [];
  const pushed: Pushed[] = [];
  let pushesFail = false;
  let tempDir: string | undefined;
  let dataDir: string | undefined;

  const optionsWith = (changes: GatewayChanges): GatewayOptions & { port?: number } => ({
    ...gatewayOptions,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(recordPushes ? { push: { send: recordPush } } : {}),
    log: (line) => {
      logs.push(line);
      gatewayOptions.log?.(line);
    },
    ...changes,
    token: options.token,
  });
  function recordPush(target: PushTarget, payload: PushPayload): void {
    pushed.push({ target, payload });
    if (pushesFail) throw new Error('push service down');
  }

  const setUp = async () => {
    logs.length = 0;
    pushed.length = 0;
    pushesFail = false;
    if (tempDataDir !== undefined) {
      tempDir = mkdtempSync(join(tmpdir(), 'iris-gw-'));
      dataDir = tempDataDir === true ? tempDir : join(tempDir, tempDataDir);
    }
    if (startBeforeEach) gw = await startGateway(optionsWith({}));
  };
  const tearDown = async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const g of others.splice(0)) await g.close();
    await gw?.close();
    gw = undefined;
    if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
    tempDir = dataDir = undefined;
  };
  if (per === 'file') {
    beforeAll(setUp);
    afterAll(tearDown);
  } else {
    beforeEach(setUp);
    afterEach(tearDown);
  }

  const fixture: GatewayFixture = {
    get gw() {
      if (!gw) throw new Error('useGateway: the gateway runs only inside a test (after restart() if not started)');
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
    async restart(changes = {}) {
      await fixture.stop();
      gw = await startGateway(optionsWith(changes));
      return gw;
    },
    async stop() {
      await gw?.close();
      gw = undefined;
    },
    async startAnother(changes = {}) {
      const g = await startGateway(optionsWith(changes));
      others.push(g);
      return g;
    },
    logs,
    pushed,
    failPushes() {
      pushesFail = true;
    },
    get tempDir() {
      if (tempDir === undefined) throw new Error('useGateway: tempDir needs tempDataDir, inside a test');
      return tempDir;
    },
    get dataDir() {
      if (dataDir === undefined) throw new Error('useGateway: dataDir needs tempDataDir, inside a test');
      return dataDir;
    },
  };
  return fixture;
}
