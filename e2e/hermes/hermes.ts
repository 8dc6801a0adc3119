// A real, stock Hermes for the tests: hermes-agent from PyPI (installed by scripts/hermes-venv.sh into
// .hermes/venv), its API server on 127.0.0.1 with a throwaway HERMES_HOME, its model the scripted one
// (model.ts). Every outside network call Hermes might make goes to a trap proxy that records it, so a
// test can prove there were none.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SCRIPTED_MODEL_ID } from './model';

export const HERMES_VERSION = '0.19.0';
const ROOT = resolve(import.meta.dirname, '../..');
const HERMES_BIN = join(ROOT, '.hermes/venv/bin/hermes');
const MARKER = join(ROOT, '.hermes/venv/.iris-hermes-version');

/**
 * Install the pinned Hermes when it is missing. Returns a reason to skip only when this machine has no
 * Python that hermes-agent supports; any other install failure is an error.
 */
export function ensureHermes(): { skip?: string } {
  if (existsSync(HERMES_BIN) && existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === HERMES_VERSION) return {};
  const r = spawnSync('bash', [join(ROOT, 'scripts/hermes-venv.sh')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  process.stderr.write(r.stderr ?? '');
  if (r.status === 3)
    return { skip: (r.stderr ?? '').trim().split('\n').pop() ?? 'no suitable Python for hermes-agent' };
  if (r.status !== 0)
    throw new Error(`scripts/hermes-venv.sh failed (exit ${r.status}): ${(r.stderr ?? '').slice(-500)}`);
  return {};
}

/** Records every request Hermes tries to send to an outside host (through HTTP(S)_PROXY) and refuses it. */
interface ProxyTrap {
  url: string;
  attempts: string[];
  close(): Promise<void>;
}

async function startProxyTrap(): Promise<ProxyTrap> {
  const attempts: string[] = [];
  const server: Server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403).end('outside network calls are not allowed in tests');
  });
  server.on('connect', (req, socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface RunningHermes {
  /** http://127.0.0.1:PORT, the API server */
  url: string;
  /** API_SERVER_KEY */
  key: string;
  home: string;
  trap: ProxyTrap;
  /** Stop the Hermes process (SIGTERM, then SIGKILL), keeping its home. */
  stop(): Promise<void>;
  /** Start it again on the same port and home. */
  start(): Promise<void>;
  /** Stop it and delete its home. */
  close(): Promise<void>;
  /** What Hermes wrote to stdout/stderr (for a failing test's message). */
  output(): string;
}

function configYaml(modelBaseUrl: string): string {
  // provider custom + a loopback base_url: Hermes's own "custom OpenAI-compatible endpoint".
  return [
    'model:',
    '  provider: custom',
    `  default: ${SCRIPTED_MODEL_ID}`,
    `  base_url: ${modelBaseUrl}`,
    '  api_key: scripted-model-key',
    '  context_length: 131072',
    'agent:',
    '  api_max_retries: 1',
    'security:',
    // tirith would download its scanner from GitHub on first use.
    '  tirith_enabled: false',
    'approvals:',
    '  mode: manual',
    '',
  ].join('\n');
}

export async function startHermes(opts: { modelBaseUrl: string }): Promise<RunningHermes> {
  const home = mkdtempSync(join(tmpdir(), 'iris-hermes-home-'));
  writeFileSync(join(home, 'config.yaml'), configYaml(opts.modelBaseUrl));
  const trap = await startProxyTrap();
  const port = await freePort();
  const key = randomBytes(24).toString('hex');
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let log = '';

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    HERMES_HOME: home,
    API_SERVER_ENABLED: 'true',
    API_SERVER_KEY: key,
    API_SERVER_HOST: '127.0.0.1',
    API_SERVER_PORT: String(port),
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    ALL_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };

  const start = async () => {
    const proc = spawn(HERMES_BIN, ['gateway', 'run'], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const keep = (b: Buffer) => (log = (log + b.toString('utf8')).slice(-20_000));
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (proc.exitCode !== null)
        throw new Error(`Hermes exited (${proc.exitCode}) before its API server answered:\n${log.slice(-3000)}`);
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`Hermes's API server did not answer within 90 s:\n${log.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    url,
    key,
    home,
    trap,
    stop,
    start,
    async close() {
      await stop();
      await trap.close();
      rmSync(home, { recursive: true, force: true });
    },
    output: () => log,
  };
}
