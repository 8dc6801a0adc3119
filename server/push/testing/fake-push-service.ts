/** Test-only: a push service on 127.0.0.1 that records what it receives and answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** How the service answers a path: a status code, or 'hang' (never answer). */
type PushServiceBehaviour = number | 'hang';

export interface FakePushService {
  origin: string;
  /** A fresh endpoint URL under this service; `behaviour` decides its answers (default 201). */
  endpoint(behaviour?: PushServiceBehaviour): string;
  received: ReceivedPush[];
  /** Requests whose connection the sender closed before an answer (e.g. on its timeout). */
  abandoned: string[];
  /** Resolves once `count` pushes have arrived in total. */
  waitForPushes(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const behaviours = new Map<string, PushServiceBehaviour>();
  const received: ReceivedPush[] = [];
  const abandoned: string[] = [];
  let waiters: Array<() => void> = [];
  let next = 0;

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const current = waiters;
      waiters = [];
      for (const wake of current) wake();
      const behaviour = behaviours.get(path) ?? 201;
      if (behaviour === 'hang') {
        res.on('close', () => abandoned.push(path));
        return;
      }
      res.writeHead(behaviour, { 'content-type': 'text/plain' }).end(behaviour >= 400 ? `answer ${behaviour}` : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    abandoned,
    endpoint(behaviour = 201) {
      const path = `/wpush/v2/${++next}-${Math.random().toString(36).slice(2)}`;
      behaviours.set(path, behaviour);
      return origin + path;
    },
    async waitForPushes(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} pushes, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
