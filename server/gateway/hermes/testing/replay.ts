// A stand-in Hermes API server that replays event streams recorded from the real one (fixtures/*.json,
// made by e2e/hermes/record.ts): the same bytes, the same run status and session answers. It pauses
// where the real run waited (an approval, a stop) until the bridge sends that request, and can cut
// the stream mid-run or splice bad events in, which a live Hermes cannot be made to do on cue.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Fixture {
  hermes_version: string;
  request: { input: string; session_id: string };
  start: { status: number; body: { run_id: string; status: string } };
  sse: string;
  run: Record<string, unknown>;
  session: Record<string, unknown>;
  session_messages: Record<string, unknown>;
}

export function loadFixture(name: string): Fixture {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', `${name}.json`), 'utf8')) as Fixture;
}

interface ReplayOptions {
  /** Close the event stream (destroy the socket) after this many SSE blocks; status still answers. */
  cutAfterBlocks?: number;
  /** Extra raw SSE text to insert before block N (malformed or unknown events). */
  inject?: { beforeBlock: number; raw: string };
  /** Answer every request with this status (401: a wrong key). */
  forceStatus?: number;
  /** No /v1/capabilities (an older Hermes). */
  noCapabilities?: boolean;
  /** No /api/sessions routes (a Hermes without the session API). */
  noSessions?: boolean;
  /** Play on without waiting where the real run waited (someone else answered or stopped it). */
  noWait?: boolean;
  /** Never answer the POST /v1/runs (a Hermes that has not said the run's id yet). */
  holdStart?: boolean;
}

export interface ReplayHermes {
  url: string;
  key: string;
  /** Requests the bridge made, "METHOD /path" (+ body for POSTs). */
  calls: Array<{ method: string; path: string; body?: unknown; headers: IncomingMessage['headers'] }>;
  /** Queue the fixture that the next POST /v1/runs plays. */
  play(fixture: Fixture, opts?: ReplayOptions): void;
  /** Keep a recorded run's session as one Hermes already has (someone used Hermes before us). */
  seedSession(fixture: Fixture): void;
  /** Options for every request from now on (a wrong key, an older Hermes). */
  configure(opts: ReplayOptions): void;
  close(): Promise<void>;
}

interface PlayingRun {
  fixture: Fixture;
  opts: ReplayOptions;
  waiting?: () => void;
  /** Hermes's clock at the newest event played (Infinity once the stream is over). */
  playedTo?: number;
}

/**
 * The session's messages as the real Hermes had them when the newest played event was sent: the ones
 * it had written by then (by its own timestamps). Before the stream starts and after it ends, all.
 */
function sessionSoFar(run: PlayingRun): Record<string, unknown> {
  const body = run.fixture.session_messages;
  const to = run.playedTo ?? Infinity;
  if (to === Infinity || !Array.isArray(body.data)) return body;
  return { ...body, data: (body.data as Array<{ timestamp?: number }>).filter((m) => (m.timestamp ?? 0) <= to) };
}

export async function startReplayHermes(key = 'replay-key-0123456789abcdef', port = 0): Promise<ReplayHermes> {
  const calls: ReplayHermes['calls'] = [];
  const queue: Array<{ fixture: Fixture; opts: ReplayOptions }> = [];
  const runs = new Map<string, PlayingRun>();
  let defaults: ReplayOptions = {};
  const seeded = new Map<string, Fixture>();
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as unknown) : undefined;
      const path = (req.url ?? '').split('?')[0];
      calls.push({ method: req.method ?? '', path, ...(body !== undefined ? { body } : {}), headers: req.headers });
      const force = queue[0]?.opts.forceStatus ?? defaults.forceStatus;
      if (path === '/health') return json(res, 200, { status: 'ok', platform: 'hermes-agent', version: '0.19.0' });
      if (force) return json(res, force, { error: { message: 'Invalid API key', type: 'invalid_request_error' } });
      if (req.headers.authorization !== `Bearer ${key}`)
        return json(res, 401, { error: { message: 'Invalid API key' } });
      if (path === '/v1/capabilities') {
        if (defaults.noCapabilities) return res.writeHead(404).end('404: Not Found');
        const features = Object.fromEntries(
          ['run_submission', 'run_status', 'run_events_sse', 'run_stop', 'run_approval_response'].map((f) => [f, true]),
        );
        return json(res, 200, { object: 'hermes.api_server.capabilities', features });
      }
      if (path === '/v1/models')
        return json(res, 200, {
          object: 'list',
          data: [
            { id: 'hermes-agent', object: 'model' },
            { id: 'fast-route', object: 'model' },
          ],
        });
      if (req.method === 'POST' && path === '/v1/runs') {
        const next = queue.shift();
        if (!next) return json(res, 500, { error: { message: 'replay: no fixture queued' } });
        if (next.opts.holdStart) return; // the socket stays open until close()
        runs.set(next.fixture.start.body.run_id, { ...next, opts: { ...defaults, ...next.opts } });
        return json(res, 202, next.fixture.start.body);
      }
      const m = /^\/v1\/runs\/([\w-]+)(?:\/(events|stop|approval))?$/.exec(path);
      const run = m ? runs.get(m[1]) : undefined;
      if (m && !run) return json(res, 404, { error: { message: `Run not found: ${m[1]}`, code: 'run_not_found' } });
      if (m && run) {
        if (!m[2]) {
          // The status is the recording's last (the run over): by then Hermes had written the whole session.
          run.playedTo = Infinity;
          return json(res, 200, run.fixture.run);
        }
        if (m[2] === 'stop' || m[2] === 'approval') {
          run.waiting?.();
          return json(res, 200, { run_id: m[1], status: 'ok' });
        }
        return streamEvents(res, run);
      }
      if (defaults.noSessions && path.startsWith('/api/sessions')) return res.writeHead(404).end('404: Not Found');
      if (path === '/api/sessions')
        return json(res, 200, { object: 'list', data: [...seeded.values()].map((f) => f.session.session) });
      const s = /^\/api\/sessions\/([\w-]+)(\/messages)?$/.exec(path);
      const known = s ? seeded.get(s[1]) : undefined;
      if (s && known) return json(res, 200, s[2] ? known.session_messages : known.session);
      if (s) {
        const run = [...runs.values()].find((r) => r.fixture.request.session_id === s[1]) ?? [...runs.values()].at(-1);
        if (!run)
          return json(res, 404, { error: { message: `Session not found: ${s[1]}`, code: 'session_not_found' } });
        return json(res, 200, s[2] ? sessionSoFar(run) : run.fixture.session);
      }
      return json(res, 404, { error: { message: `replay: no route ${path}` } });
    })().catch((err: unknown) => json(res, 500, { error: { message: String(err) } }));
  });

  async function streamEvents(res: ServerResponse, run: PlayingRun): Promise<void> {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const blocks = run.fixture.sse.split(/(?<=\n\n)/);
    for (let i = 0; i < blocks.length; i++) {
      if (run.opts.cutAfterBlocks !== undefined && i >= run.opts.cutAfterBlocks) {
        res.socket?.destroy();
        return;
      }
      if (run.opts.inject?.beforeBlock === i) res.write(run.opts.inject.raw);
      const block = blocks[i];
      // The real run waited here for the client's request: so does the replay.
      if (!run.opts.noWait && /"event": "(approval\.responded|run\.cancelled)"/.test(block))
        await new Promise<void>((r) => (run.waiting = r));
      res.write(block);
      const ts = /"timestamp": ([\d.]+)/.exec(block);
      if (ts) run.playedTo = Number(ts[1]);
      await new Promise((r) => setImmediate(r));
    }
    run.playedTo = Infinity;
    res.end();
  }

  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    calls,
    play(fixture, opts = {}) {
      queue.push({ fixture, opts });
    },
    seedSession(fixture) {
      seeded.set(fixture.request.session_id, fixture);
    },
    configure(opts) {
      defaults = opts;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
