// The real CLI, spawned as `npm start` runs it: flags, the printed pairing link, errors, signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { startReplayHermes } from './gateway/hermes/testing/replay';
import { useGateway } from './gateway/testing';
import { lanOrigins } from './http/addresses';
import {
  closed,
  hasOpenssl,
  helloFrame,
  makeFakeDist,
  makeSelfSignedCert,
  nextFrameOfType,
  openSocket,
  rawRequest,
  type FakeDist,
} from './http/testing/fixtures';

const ROOT = resolve(import.meta.dirname, '..');
let dist: FakeDist;
let scratch: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dist = makeFakeDist();
  scratch = mkdtempSync(join(tmpdir(), 'iris-cli-'));
});
afterAll(() => {
  // Only a failed test leaves a CLI running.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dist.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function spawnCli(args: string[], env: Record<string, string> = {}): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Runs the CLI until it has printed both start lines. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
  lines = 3,
): Promise<Cli & { link: string; port: number; token?: string }> {
  const cli = spawnCli(args, env);
  const started = Date.now();
  while (cli.stdout().split('\n').length < lines + 1) {
    if (cli.child.exitCode !== null) throw new Error(`the CLI exited ${cli.child.exitCode}: ${cli.stderr()}`);
    if (Date.now() - started > 45_000)
      throw new Error(`the CLI did not start; stdout: ${cli.stdout()}; stderr: ${cli.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const link = /^Pairing link: (\S+)$/m.exec(cli.stdout())![1]!;
  const port = Number(new URL(link).port);
  const token = /^Demo token: (\S+)$/m.exec(cli.stdout())?.[1];
  return { ...cli, link, port, ...(token ? { token } : {}) };
}

/** The CLI's stderr once it has written at least one whole line. */
async function stderrLines(cli: Cli): Promise<string[]> {
  const started = Date.now();
  while (!cli.stderr().endsWith('\n')) {
    if (Date.now() - started > 10_000) throw new Error(`no line on stderr; stdout: ${cli.stdout()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return cli.stderr().trimEnd().split('\n');
}

async function stop(cli: Cli, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  cli.child.kill(signal);
  return cli.exit;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const serveArgs = (dataDir: string) => [
  '--port',
  '0',
  '--host',
  '127.0.0.1',
  '--dist-dir',
  dist.distDir,
  '--data-dir',
  dataDir,
];

// Each case spawns a Node process with tsx: generous timeouts for a loaded CI machine.
describe('npm start', { timeout: 60_000 }, () => {
  // The gateway that --gateway relays to, in the test that needs one.
  const upstream = useGateway({ token: 'upstream-token-abcdefgh', startBeforeEach: false });
  it('prints the pairing link and the demo token, serves the app and the demo on that port, and stops on SIGTERM', async () => {
    const dataDir = join(scratch, 'run-1');
    const cli = await startCli(serveArgs(dataDir));
    const lines = cli.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('Agent: Iris demo agent (model iris-demo-1)');
    expect(cli.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(cli.link).toBe(
      `http://localhost:${cli.port}/#/pair?url=${encodeURIComponent(`ws://localhost:${cli.port}/ws`)}&token=${cli.token}`,
    );

    const page = await rawRequest(cli.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');

    const { ws } = await openSocket(`ws://127.0.0.1:${cli.port}/ws`);
    const ack = nextFrameOfType(ws, ['hello.ack', 'error']);
    ws.send(helloFrame(cli.token!));
    expect((await ack).type).toBe('hello.ack');
    const wsClosed = closed(ws);

    expect(await stop(cli)).toBe(0);
    expect((await wsClosed).code).not.toBe(1006);
    expect(cli.stderr()).toBe('');
  });

  it('listens for SIGTERM before it prints the first line, so a stop right after the link is a clean one', async () => {
    // In process, so the order is checked, not raced: a supervisor (or this file's other cases) stops the
    // CLI as soon as it has read the link, and a loaded machine can deschedule the CLI right after printing.
    const before = process.listenerCount('SIGTERM');
    const listenersAtLine: number[] = [];
    const io = { out: () => listenersAtLine.push(process.listenerCount('SIGTERM')), err: () => {} };
    const exit = runCli(serveArgs(join(scratch, 'run-in-process')), io);
    while (listenersAtLine.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(listenersAtLine[0]).toBe(before + 1);
    process.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });

  it('keeps the generated token in the data dir, private, so the link survives a restart', async () => {
    const dataDir = join(scratch, 'run-2');
    const first = await startCli(serveArgs(dataDir));
    expect(await stop(first, 'SIGINT')).toBe(0);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'demo-token')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'demo-token'), 'utf8').trim()).toBe(first.token);
    const second = await startCli(serveArgs(dataDir));
    expect(second.token).toBe(first.token);
    await stop(second);
  });

  it('uses --token when given', async () => {
    const cli = await startCli([...serveArgs(join(scratch, 'run-3')), '--token', 'my-own-token-123']);
    expect(cli.token).toBe('my-own-token-123');
    expect(cli.link).toMatch(/&token=my-own-token-123$/);
    await stop(cli);
  });

  it('keeps its state in ~/.iris-web by default', async () => {
    const home = join(scratch, 'home');
    mkdirSync(home);
    const cli = await startCli(['--port', '0', '--host', '127.0.0.1', '--dist-dir', dist.distDir], { HOME: home });
    expect(readFileSync(join(home, '.iris-web', 'demo-token'), 'utf8').trim()).toBe(cli.token);
    await stop(cli);
  });

  it('prints usage for --help', async () => {
    const cli = spawnCli(['--help']);
    expect(await cli.exit).toBe(0);
    expect(cli.stdout()).toMatch(/^Usage: /);
    for (const flag of [
      '--port',
      '--host',
      '--gateway',
      '--cert',
      '--key',
      '--data-dir',
      '--token',
      '--hermes',
      '--hermes-key-file',
      'HERMES_API_KEY',
    ]) {
      expect(cli.stdout()).toContain(flag);
    }
  });

  it('--hermes: the gateway with a stock Hermes as its agent; says which Hermes and model, never the key', async () => {
    const hermes = await startReplayHermes('cli-secret-key-0123456789abcdef');
    try {
      const dataDir = join(scratch, 'run-hermes');
      const cli = await startCli([...serveArgs(dataDir), '--hermes', hermes.url], { HERMES_API_KEY: hermes.key });
      expect(cli.stdout()).toContain(`Agent: Hermes 0.19.0 at ${hermes.url} (model hermes-agent)`);
      const token = /^Gateway token: (\S+)$/m.exec(cli.stdout())![1]!;
      expect(hermes.calls.some((c) => c.headers.authorization === `Bearer ${hermes.key}`)).toBe(true);
      const { ws } = await openSocket(`ws://127.0.0.1:${cli.port}/ws`);
      const status = nextFrameOfType(ws, ['status', 'error']);
      ws.send(helloFrame(token));
      expect((await status).payload).toMatchObject({
        state: 'online',
        session: { agent: { kind: 'hermes', version: '0.19.0' } },
      });
      expect(await stop(cli)).toBe(0);
      expect(cli.stdout() + cli.stderr()).not.toContain(hermes.key);
      // Hermes's conversations live apart from the demo's.
      expect(statSync(join(dataDir, 'hermes')).isDirectory()).toBe(true);
    } finally {
      await hermes.close();
    }
  });

  it('--hermes to a Hermes that is not there: one clear line, and the gateway starts anyway (degraded)', async () => {
    const port = await freePort();
    const keyFile = join(scratch, 'hermes-key');
    writeFileSync(keyFile, 'file-secret-key-0123456789abcdef\n');
    const cli = await startCli(
      [
        ...serveArgs(join(scratch, 'run-hermes-down')),
        '--hermes',
        `http://127.0.0.1:${port}`,
        '--hermes-key-file',
        keyFile,
      ],
      {},
      2,
    );
    expect(await stderrLines(cli)).toEqual([
      `iris: Hermes at http://127.0.0.1:${port} is not reachable (ECONNREFUSED). The gateway runs anyway: the app shows a banner until Hermes answers.`,
    ]);
    expect(await stop(cli)).toBe(0);
    expect(cli.stdout() + cli.stderr()).not.toContain('file-secret-key');
  });

  it("bound to 0.0.0.0, prints this machine's addresses on the network (the ones a phone can open)", async () => {
    const cli = await startCli([
      ...serveArgs(join(scratch, 'run-lan')).filter((a) => a !== '127.0.0.1' && a !== '--host'),
      '--host',
      '0.0.0.0',
    ]);
    const expected = lanOrigins('0.0.0.0', cli.port, false);
    // The last of the lines wanted: the QR's heading when there is an address, else the no-address line.
    const last = expected.length > 0 ? /^Scan to pair a phone/m : /^On your network: no address found/m;
    await new Promise<void>((r) => {
      const poll = () => (last.test(cli.stdout()) ? r() : setTimeout(poll, 20));
      poll();
    });
    if (expected.length > 0) {
      expect(cli.stdout()).toContain(`On your network: ${expected.join('  ')}\n`);
      expect(cli.stdout()).toContain(`Scan to pair a phone (${expected[0]}):`);
    } else {
      // A container with no network interface but loopback: the line says so rather than vanishing.
      expect(cli.stdout()).toMatch(/^On your network: no address found/m);
    }
    await stop(cli);
  });

  it('--hermes with a key Hermes refuses (401): one clear line; the key sent is the one from --hermes-key-file, never printed', async () => {
    const hermes = await startReplayHermes('the-right-key-0123456789abcdef');
    try {
      const keyFile = join(scratch, 'hermes-wrong-key');
      writeFileSync(keyFile, 'file-wrong-key-0123456789abcdef\n');
      const cli = await startCli(
        [...serveArgs(join(scratch, 'run-hermes-401')), '--hermes', hermes.url, '--hermes-key-file', keyFile],
        { HERMES_API_KEY: 'env-key-not-used-0123456789' },
        2,
      );
      expect(await stderrLines(cli)).toEqual([
        'iris: Hermes refused the API key (HTTP 401). The key given (HERMES_API_KEY or --hermes-key-file) must be its API_SERVER_KEY. The gateway runs anyway: the app shows a banner until Hermes answers.',
      ]);
      const sent = hermes.calls.map((c) => c.headers.authorization).filter((a) => a !== undefined);
      expect(sent.length).toBeGreaterThan(0);
      expect(new Set(sent)).toEqual(new Set(['Bearer file-wrong-key-0123456789abcdef']));
      expect(await stop(cli)).toBe(0);
      expect(cli.stdout() + cli.stderr()).not.toContain('file-wrong-key');
    } finally {
      await hermes.close();
    }
  });

  it('--hermes to a Hermes too old for the bridge (no /v1/capabilities): one clear line naming the tested version', async () => {
    const hermes = await startReplayHermes('old-hermes-key-0123456789abcdef');
    hermes.configure({ noCapabilities: true });
    try {
      const cli = await startCli(
        [...serveArgs(join(scratch, 'run-hermes-old')), '--hermes', hermes.url],
        { HERMES_API_KEY: hermes.key },
        2,
      );
      expect(await stderrLines(cli)).toEqual([
        'iris: This Hermes has no /v1/capabilities endpoint; it is too old for Iris Web (tested with hermes-agent 0.19.0). The gateway runs anyway: the app shows a banner until Hermes answers.',
      ]);
      expect(await stop(cli)).toBe(0);
      expect(cli.stdout() + cli.stderr()).not.toContain(hermes.key);
    } finally {
      await hermes.close();
    }
  });

  it('serves HTTPS and prints an https/wss link with --cert and --key', async (ctx) => {
    if (!hasOpenssl()) ctx.skip('openssl is not installed, so no test certificate can be made');
    const { certFile, keyFile, cert } = makeSelfSignedCert(scratch);
    const cli = await startCli([...serveArgs(join(scratch, 'run-tls')), '--cert', certFile, '--key', keyFile]);
    expect(cli.link).toBe(
      `https://localhost:${cli.port}/#/pair?url=${encodeURIComponent(`wss://localhost:${cli.port}/ws`)}&token=${cli.token}`,
    );
    const status = await new Promise<number>((resolveStatus, reject) => {
      httpsGet({ host: '127.0.0.1', port: cli.port, path: '/', ca: cert, servername: 'localhost' }, (res) => {
        res.resume();
        resolveStatus(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(200);
    await stop(cli);
  });

  it('relays /ws to --gateway, prints a link without a token, and never prints the query of the gateway URL', async () => {
    const token = 'upstream-token-abcdefgh';
    const gateway = await upstream.restart();
    const cli = await startCli(
      [...serveArgs(join(scratch, 'run-proxy')), '--gateway', `${gateway.url}?key=hidden-value`],
      {},
      2,
    );
    expect(cli.token).toBeUndefined();
    expect(cli.link).toBe(
      `http://localhost:${cli.port}/#/pair?url=${encodeURIComponent(`ws://localhost:${cli.port}/ws`)}`,
    );
    expect(cli.stdout()).toContain(`Gateway: /ws is relayed to ${gateway.url} `);
    expect(cli.stdout() + cli.stderr()).not.toContain('hidden-value');

    const { ws } = await openSocket(`ws://127.0.0.1:${cli.port}/ws`);
    const ack = nextFrameOfType(ws, ['hello.ack', 'error']);
    ws.send(helloFrame(token));
    expect((await ack).type).toBe('hello.ack');
    expect(await stop(cli)).toBe(0);
  });
});

describe.concurrent('bad start: one clear line on stderr, exit code 2, no stack trace', { timeout: 60_000 }, () => {
  async function expectFailure(args: string[], message: RegExp | string): Promise<void> {
    const cli = spawnCli(args);
    expect(await cli.exit).toBe(2);
    const stderr = cli.stderr();
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\bat .*:\d+:\d+/);
    if (typeof message === 'string') expect(stderr.trimEnd()).toBe(message);
    else expect(stderr.trimEnd()).toMatch(message);
    expect(cli.stdout()).toBe('');
  }
  const base = () => ['--host', '127.0.0.1', '--dist-dir', dist.distDir, '--data-dir', join(scratch, 'bad')];

  it('an unknown flag', () => expectFailure(['--bogus'], 'iris: unknown option --bogus (see --help)'));
  // The gateway's test-only quirks (server/gateway/quirks.ts) are not reachable from the command line.
  it('the test-only quirks', () =>
    expectFailure(['--quirks', 'noClientId'], 'iris: unknown option --quirks (see --help)'));
  it('a non-numeric port', () => expectFailure(['--port', 'abc'], 'iris: --port needs a number from 0 to 65535'));
  it('a port out of range', () => expectFailure(['--port', '70000'], 'iris: --port needs a number from 0 to 65535'));
  it('a missing value', () => expectFailure(['--port'], 'iris: --port needs a value (see --help)'));
  it('a flag where a value should be', () =>
    expectFailure(['--token', '--port', '1'], 'iris: --token needs a value (see --help)'));
  it('an empty value', () => expectFailure(['--data-dir='], 'iris: --data-dir needs a value (see --help)'));
  it('a stray argument', () =>
    expectFailure(['8080'], 'iris: unexpected argument: every option starts with -- (see --help)'));
  it('a value given to --help', () => expectFailure(['--help=yes'], 'iris: --help takes no value (see --help)'));
  it('--cert without --key', () =>
    expectFailure([...base(), '--cert', 'cert.pem'], /^iris: --cert and --key go together/));
  it('a missing cert file', () =>
    expectFailure(
      [...base(), '--cert', '/nonexistent/cert.pem', '--key', '/nonexistent/key.pem'],
      'iris: cannot read the certificate file /nonexistent/cert.pem (ENOENT)',
    ));
  it('a cert path that is a directory', () =>
    expectFailure(
      [...base(), '--cert', scratch, '--key', scratch],
      `iris: cannot read the certificate file ${scratch} (EISDIR)`,
    ));
  it('a cert file that is not PEM', () => {
    const junk = join(scratch, 'junk.pem');
    writeFileSync(junk, 'not a certificate');
    return expectFailure(
      [...base(), '--port', '0', '--cert', junk, '--key', junk],
      /^iris: the certificate or key is not valid PEM \(.+\)$/,
    );
  });
  it('a gateway URL that is not ws:// or wss://', () =>
    expectFailure(
      [...base(), '--gateway', 'http://example.com/ws'],
      'iris: --gateway: the gateway URL must start with ws:// or wss://',
    ));
  it.runIf(existsSync('/proc/self'))('a data directory the system refuses to make (under /proc)', () =>
    expectFailure(
      ['--host', '127.0.0.1', '--dist-dir', dist.distDir, '--data-dir', '/proc/iris-no-such/data'],
      'iris: cannot create the data directory /proc/iris-no-such/data (ENOENT)',
    ),
  );
  it('a data directory that is a file: refused, and the file left as it was', async () => {
    const file = join(scratch, 'not-a-folder');
    writeFileSync(file, 'mine', { mode: 0o644 });
    chmodSync(file, 0o644);
    await expectFailure(
      ['--host', '127.0.0.1', '--dist-dir', dist.distDir, '--data-dir', file],
      `iris: cannot create the data directory ${file} (EEXIST)`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });
  it('a data directory under a file', () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    return expectFailure(
      ['--host', '127.0.0.1', '--dist-dir', dist.distDir, '--data-dir', join(file, 'data')],
      `iris: cannot create the data directory ${join(file, 'data')} (ENOTDIR)`,
    );
  });
  it('--hermes with a URL that is not http(s)', () =>
    expectFailure(
      [...base(), '--hermes', 'ws://127.0.0.1:8642'],
      "iris: --hermes needs an http:// or https:// URL (Hermes's API server)",
    ));
  it('--hermes with a key in the URL', () =>
    expectFailure(
      [...base(), '--hermes', 'http://u:secret@127.0.0.1:8642'],
      'iris: --hermes takes a plain URL; give the key with HERMES_API_KEY or --hermes-key-file',
    ));
  it('a missing Hermes key file', () =>
    expectFailure(
      [...base(), '--hermes', 'http://127.0.0.1:8642', '--hermes-key-file', '/nonexistent/key'],
      'iris: cannot read the Hermes key file /nonexistent/key (ENOENT)',
    ));
  it('--hermes together with --gateway', () =>
    expectFailure(
      [...base(), '--hermes', 'http://127.0.0.1:8642', '--gateway', 'ws://127.0.0.1:1/ws'],
      /^iris: --hermes and --gateway exclude each other/,
    ));
  it('--token together with --gateway', () =>
    expectFailure(
      [...base(), '--gateway', 'ws://127.0.0.1:9/ws', '--token', 'abc'],
      /^iris: --token is the demo gateway's token/,
    ));
  it('a --token shorter than 16 characters, in one line that does not echo it', async () => {
    await expectFailure(
      [...base(), '--token', 'short-tok-15chr'],
      'iris: --token must be at least 16 characters (leave it out to have a strong one made)',
    );
  });
  it('an --allowed-origin that is not an origin', () =>
    expectFailure(
      [...base(), '--allowed-origin', 'iris.example.org'],
      'iris: --allowed-origin needs an origin like https://iris.example.org, not "iris.example.org"',
    ));
  it('a --push-hosts entry that is not a host', () =>
    expectFailure(
      [...base(), '--push-hosts', 'fcm.googleapis.com,http://x'],
      'iris: --push-hosts: "http://x" is not a host name or *.domain pattern',
    ));
  it('a dist dir without a build', () => {
    const empty = join(scratch, 'empty-dist');
    mkdirSync(empty, { recursive: true });
    return expectFailure(
      ['--dist-dir', empty, '--data-dir', join(scratch, 'bad')],
      `iris: no built app in ${empty} (no finished build there: run npm run build)`,
    );
  });
  it('a busy port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as AddressInfo;
    try {
      await expectFailure(
        [...base(), '--port', String(port)],
        `iris: port ${port} is already in use (try --port ${port + 1})`,
      );
    } finally {
      blocker.close();
    }
  });
  it('a host that is not an address of this machine', () =>
    expectFailure(
      ['--host', '192.0.2.1', '--port', '0', '--dist-dir', dist.distDir, '--data-dir', join(scratch, 'bad')],
      'iris: cannot listen on 192.0.2.1: no such address on this machine (check --host)',
    ));
  it('never echoes a value (it might be the token typed in the wrong place)', async () => {
    const cli = spawnCli(['--port', 'SECRET-TOKEN-VALUE']);
    expect(await cli.exit).toBe(2);
    expect(cli.stderr()).not.toContain('SECRET-TOKEN-VALUE');
  });
});

describe('npm start for a phone', { timeout: 60_000 }, () => {
  it('--public-url puts that origin in the printed link and in the QR code under it', async () => {
    const { terminalQr } = await import('./terminal-qr');
    const cli = await startCli([...serveArgs(join(scratch, 'public-url')), '--public-url', 'https://iris.example.org']);
    const token = cli.token!;
    const link = `https://iris.example.org/#/pair?url=${encodeURIComponent('wss://iris.example.org/ws')}&token=${token}`;
    expect(cli.link).toBe(link);
    await expect.poll(() => cli.stdout()).toContain(terminalQr(link, false).join('\n'));
    expect(cli.stdout()).toContain('Scan to pair a phone (https://iris.example.org):');
    expect(cli.stdout()).not.toContain('needs HTTPS');
    await stop(cli);
  });

  it('refuses a --public-url that is not an http(s) origin', async () => {
    for (const bad of ['iris.example.org', 'ftp://iris.example.org', 'https://iris.example.org/app']) {
      const cli = spawnCli([...serveArgs(join(scratch, 'bad-url')), '--public-url', bad]);
      expect(await cli.exit).toBe(2);
      expect(cli.stderr()).toMatch(/^iris: --public-url /);
    }
  });
});
