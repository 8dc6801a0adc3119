// One fault run: the serving process in a worker (killable), the fault proxy in front of it, one or
// more devices (browser contexts) using the built app through the proxy, and at the end the verdict
// against the gateway's own store once everything has settled.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { FaultProxy } from '../../server/faultproxy';
import { LANE, openLane, pairAndOpen } from '../support';
import {
  nudgeOnline,
  observeWire,
  readApp,
  readWire,
  send,
  storedCursor,
  uploadBytes,
  type AppState,
  type WireLog,
} from './app';
import {
  addVerdict,
  emptyVerdict,
  isClean,
  judge,
  type DeviceEvidence,
  type UploadExpectation,
  type Verdict,
} from './checks';
import { GatewayHost } from './gateway-host';
import { Rng } from './rng';

export interface Device {
  name: string;
  context: BrowserContext;
  pages: Page[];
  typed: string[];
  cursorSamples: number[];
  mirrorsLane: boolean;
}

export interface RunOptions {
  browser: Browser;
  distDir: string;
  seed: number;
  scenario: string;
  streamDelayMs?: number;
  /** How long the app and gateway may take to agree after the faults stop. */
  settleMs?: number;
  verbose?: boolean;
}

export class Run {
  readonly rng: Rng;
  readonly devices: Device[] = [];
  readonly events: string[] = [];
  upload: UploadExpectation | undefined;
  /** What a scenario itself found wrong on the way (added to every verdict). */
  readonly findings: Verdict = emptyVerdict();
  private sampling = true;
  private sampler: Promise<void> | undefined;
  private counter = 0;
  private readonly started = Date.now();

  private constructor(
    readonly opts: RunOptions,
    readonly gateway: GatewayHost,
    readonly proxy: FaultProxy,
    readonly token: string,
    private readonly dataDir: string,
  ) {
    this.rng = new Rng(opts.seed);
  }

  static async open(opts: RunOptions): Promise<Run> {
    const dataDir = mkdtempSync(join(tmpdir(), 'iris-faults-'));
    const token = `faults-${opts.seed.toString(36)}-${Math.random().toString(36).slice(2)}`;
    const gateway = await GatewayHost.start({
      distDir: opts.distDir,
      dataDir,
      token,
      streamDelayMs: opts.streamDelayMs ?? 30,
    });
    const proxy = await FaultProxy.start({ target: () => ({ host: '127.0.0.1', port: gateway.port }) });
    const run = new Run(opts, gateway, proxy, token, dataDir);
    run.sampler = run.sampleCursors();
    return run;
  }

  get origin(): string {
    return this.proxy.origin;
  }

  note(event: string): void {
    const line = `${((Date.now() - this.started) / 1000).toFixed(2)}s ${event}`;
    this.events.push(line);
    if (this.opts.verbose) console.log(`  [${this.opts.scenario} ${this.opts.seed}] ${line}`);
  }

  /** A unique message text for this run. */
  text(label: string): string {
    return `fault ${this.opts.scenario} ${this.opts.seed.toString(36)} ${label} #${++this.counter}`;
  }

  /** A device: its own browser context (own IndexedDB, own device_id), paired and on the lane. */
  async addDevice(name: string, mirrorsLane = true): Promise<Device> {
    // Service workers are blocked: each run is a fresh profile and the SW's precache would only add load.
    const context = await this.opts.browser.newContext({ serviceWorkers: 'block' });
    // Functions passed to page.evaluate from code compiled by tsx carry esbuild's `__name` helper.
    await context.addInitScript('globalThis.__name = (f) => f;');
    await context.addInitScript(observeWire);
    const device: Device = { name, context, pages: [], typed: [], cursorSamples: [], mirrorsLane };
    this.devices.push(device);
    const page = await this.track(device, await context.newPage());
    await pairAndOpen(page, { origin: this.origin, token: this.token });
    this.note(`${name} paired`);
    return device;
  }

  /** Another tab of the same device, on the lane. */
  async openTab(device: Device): Promise<Page> {
    const page = await this.track(device, await device.context.newPage());
    await openLane(page, this);
    return page;
  }

  async closeTab(device: Device, page: Page): Promise<void> {
    device.pages = device.pages.filter((p) => p !== page);
    await page.close();
  }

  /** Kills the tab's renderer (DevTools Page.crash): no unload, no flush, whatever it was writing is lost. */
  async crashTab(device: Device, page: Page): Promise<void> {
    device.pages = device.pages.filter((p) => p !== page);
    const crashed = page.waitForEvent('crash', { timeout: 10_000 }).catch(() => undefined);
    const cdp = await page.context().newCDPSession(page);
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;
    await page.close().catch(() => undefined);
  }

  /** Waits until the page's stored cursor is at least `cursor` (polling the DB); returns it, or undefined. */
  async waitForCursor(page: Page, cursor: number, timeoutMs = 10_000): Promise<number | undefined> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const now = await storedCursor(page).catch(() => 0);
      if (now >= cursor) return now;
      await sleep(5);
    }
    return undefined;
  }

  wire(page: Page): Promise<WireLog> {
    return readWire(page);
  }

  /** A scenario's own finding: counted in the verdict like the checks' own. */
  find(kind: 'lost' | 'duplicated' | 'stuck', problem: string): void {
    this.findings[kind]++;
    this.findings.problems.push(problem);
    this.note(`FOUND (${kind}): ${problem}`);
  }

  private async track(device: Device, page: Page): Promise<Page> {
    device.pages.push(page);
    page.on('close', () => (device.pages = device.pages.filter((p) => p !== page)));
    page.on('pageerror', (e) => this.note(`${device.name}: page error: ${e.message}`));
    return page;
  }

  /** Types and sends from `page`; the message counts as sent once the app has stored it. */
  async send(device: Device, page: Page, label: string): Promise<string> {
    const text = this.text(label);
    const notStored = await send(page, text);
    if (notStored !== undefined)
      throw new Error(`${device.name}: the app did not store ${JSON.stringify(text)} after Send (${notStored})`);
    device.typed.push(text);
    this.note(`${device.name} sent ${label}`);
    return text;
  }

  /** Waits until the app shows a reply streaming (a streaming row in its DB); false if none did. */
  async waitForStreaming(page: Page, timeoutMs = 10_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const state = await readApp(page).catch(() => undefined);
      if (state?.messages.some((m) => m.lane === LANE && m.status === 'streaming')) return true;
      await sleep(25);
    }
    return false;
  }

  async killGateway(): Promise<void> {
    await this.gateway.kill();
    this.note('gateway killed');
  }

  async restartGateway(): Promise<void> {
    await this.gateway.restart();
    this.note('gateway restarted');
  }

  /** The faults stop: link up, no latency, gateway running, and the browser says it is online. */
  async heal(): Promise<void> {
    this.proxy.up();
    this.proxy.setDelay(0);
    if (!this.gateway.running) await this.restartGateway();
    for (const d of this.devices) for (const p of d.pages) await nudgeOnline(p);
    this.note('healed');
  }

  /** Polls until the app and the gateway agree (and stay so), or the time runs out; returns the verdict. */
  async settle(): Promise<Verdict> {
    const end = Date.now() + (this.opts.settleMs ?? 45_000);
    let previous: string | undefined;
    let lastNudge = Date.now();
    for (;;) {
      const verdict = await this.verdict().catch((e: Error) => {
        const v = emptyVerdict();
        v.stuck++;
        v.problems.push(`could not read the state: ${e.message}`);
        return v;
      });
      const key = JSON.stringify(verdict);
      if (isClean(verdict) && key === previous) return verdict;
      previous = isClean(verdict) ? key : undefined;
      if (Date.now() > end) return verdict;
      if (Date.now() - lastNudge > 5000) {
        lastNudge = Date.now();
        for (const d of this.devices) for (const p of d.pages) await nudgeOnline(p);
      }
      await sleep(600);
    }
  }

  private async verdict(): Promise<Verdict> {
    const states: AppState[] = [];
    for (const d of this.devices) {
      const page = d.pages[0];
      if (!page) throw new Error(`${d.name} has no open page`);
      states.push(await readApp(page));
    }
    const deviceIds = states.map((s) => s.deviceId).filter((id): id is string => id !== undefined);
    const snapshot = await this.gateway.snapshot([LANE], deviceIds);
    const evidence: DeviceEvidence[] = this.devices.map((d, i) => ({
      name: d.name,
      state: states[i]!,
      cursorSamples: [...d.cursorSamples, ...states[i]!.cursors.map((c) => c.cursor)],
      typed: d.typed,
      mirrorsLane: d.mirrorsLane,
    }));
    const v = judge(LANE, snapshot, evidence, this.upload);
    addVerdict(v, { ...this.findings, problems: [...this.findings.problems] });
    if (snapshot.inflight > 0) {
      v.stuck++;
      v.problems.push('the gateway is still streaming a turn');
    }
    return v;
  }

  /** Samples every device's stored sync cursor during the whole run (it must never move back); notes busy flips. */
  private async sampleCursors(): Promise<void> {
    const busy = new Map<Device, boolean>();
    while (this.sampling) {
      for (const d of this.devices) {
        const page = d.pages[0];
        if (!page || page.isClosed()) continue;
        const sample = await page
          .evaluate(async (lane) => {
            const db = await new Promise<IDBDatabase>((resolve, reject) => {
              const req = indexedDB.open('iris');
              req.onsuccess = () => resolve(req.result);
              req.onerror = () => reject(req.error);
            });
            try {
              if (!db.objectStoreNames.contains('sync')) return undefined;
              const tx = db.transaction(['sync', 'lanes']);
              const get = <T>(req: IDBRequest<T>) =>
                new Promise<T>((resolve, reject) => {
                  req.onsuccess = () => resolve(req.result);
                  req.onerror = () => reject(req.error);
                });
              const [rows, laneRow] = await Promise.all([
                get(tx.objectStore('sync').getAll() as IDBRequest<{ cursor: number }[]>),
                get(tx.objectStore('lanes').get(lane) as IDBRequest<{ busy?: boolean } | undefined>),
              ]);
              return {
                cursor: rows.length ? Math.max(...rows.map((r) => r.cursor)) : undefined,
                busy: laneRow?.busy === true,
              };
            } finally {
              db.close();
            }
          }, LANE)
          .catch(() => undefined);
        if (typeof sample?.cursor === 'number') d.cursorSamples.push(sample.cursor);
        if (sample && busy.get(d) !== sample.busy) {
          busy.set(d, sample.busy);
          this.note(`${d.name}: lane ${sample.busy ? 'busy' : 'idle'} (cursor ${sample.cursor ?? '-'})`);
        }
      }
      await sleep(150);
    }
  }

  /** Expect this upload (deterministic bytes) to reach the gateway intact. */
  expectUpload(text: string, size: number, seed: number): void {
    const sha256 = createHash('sha256').update(uploadBytes(size, seed)).digest('hex');
    this.upload = { text, size, sha256 };
  }

  async close(): Promise<void> {
    this.sampling = false;
    await this.sampler;
    for (const d of this.devices) await d.context.close().catch(() => undefined);
    await this.proxy.close();
    await this.gateway.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
