// Runs the serving process in a worker thread (see gateway-worker.ts) and kills/restarts it.
import { Worker } from 'node:worker_threads';
import type { GatewaySnapshot, WorkerConfig } from './gateway-worker';

const BOOT = new URL('./gateway-worker.mjs', import.meta.url);

export class GatewayHost {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (m: { ok: boolean; snapshot?: GatewaySnapshot }) => void>();
  port = 0;
  /** How many times it was killed and started again. */
  restarts = 0;

  private constructor(private readonly config: Omit<WorkerConfig, 'port'>) {}

  static async start(config: Omit<WorkerConfig, 'port'>): Promise<GatewayHost> {
    const host = new GatewayHost(config);
    await host.spawn(0);
    return host;
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  private async spawn(port: number): Promise<void> {
    // The port may still be held for a moment by the thread that was killed: retry briefly.
    for (let attempt = 0; ; attempt++) {
      const worker = new Worker(BOOT, { workerData: { ...this.config, port } satisfies WorkerConfig });
      const ready = await new Promise<{ ready: boolean; port?: number; error?: string }>((resolve) => {
        worker.once('message', resolve);
        worker.once('error', (e) => resolve({ ready: false, error: e.message }));
      });
      if (ready.ready) {
        this.worker = worker;
        this.port = ready.port!;
        worker.on('message', (m: { id?: number; ok: boolean; snapshot?: GatewaySnapshot }) => {
          if (m.id === undefined) return;
          this.pending.get(m.id)?.(m);
          this.pending.delete(m.id);
        });
        worker.on('error', () => {});
        return;
      }
      await worker.terminate();
      if (attempt >= 40) throw new Error(`the gateway did not start: ${ready.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private call<T extends { ok: boolean }>(msg: object): Promise<T> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('the gateway is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('the gateway worker did not answer'));
      }, 15_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m as unknown as T);
      });
      worker.postMessage({ ...msg, id });
    });
  }

  /** What the gateway's own store says now. */
  async snapshot(lanes: string[], devices: string[]): Promise<GatewaySnapshot> {
    const answer = await this.call<{ ok: boolean; snapshot: GatewaySnapshot }>({ op: 'query', lanes, devices });
    return answer.snapshot;
  }

  /** Kills the gateway mid-whatever (no flush, sockets dropped), like a crashed process. */
  async kill(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const resolve of this.pending.values()) resolve({ ok: false });
    this.pending.clear();
    await worker?.terminate();
  }

  /** Starts it again on the same port and data directory. */
  async restart(): Promise<void> {
    if (this.worker) await this.kill();
    await this.spawn(this.port);
    this.restarts++;
  }

  /** Graceful stop (state flushed). */
  async stop(): Promise<void> {
    if (!this.worker) return;
    await this.call({ op: 'close' }).catch(() => undefined);
    await this.kill();
  }
}
