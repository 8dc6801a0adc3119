import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeUpstream, parseUpstreamUrl } from './proxy/upstream-url';
import { DEFAULT_PUSH_HOSTS, parsePushHosts } from './push/endpoint-guard';
import { lanOrigins, localOrigin, pairingLink, parsePublicUrl } from './http/addresses';
import { terminalQr } from './terminal-qr';
import { buildApp } from './http/app-build';
import { buildState } from './http/build-stamp';
import { ensureDataDir, loadOrCreateDemoToken } from './http/demo-token';
import { startServer, type RunningServer, type ServerOptions } from './http/server';
import { HermesAgent } from './gateway/hermes/agent';
import { hermesTarget, readHermesKey } from './hermes-flags';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_DIST = join(PROJECT_ROOT, 'dist');
const DEFAULT_PORT = 8080;

const USAGE = `Usage: npm start -- [options]   (or: node --import tsx server/main.ts [options])

Serves Iris Web and its WebSocket (/ws) on one port. By default /ws hosts the demo gateway.

Options:
  --port N          port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDR       interface to listen on (default 0.0.0.0, so phones on the LAN can reach it)
  --gateway URL     relay /ws byte for byte to a real Iris gateway (ws://host:port/path or wss://…)
                    instead of hosting the demo; a self-signed wss gateway needs NODE_EXTRA_CA_CERTS
  --hermes URL      the gateway's agent is a stock Hermes, through its API server at URL
                    (e.g. http://127.0.0.1:8642; in Hermes: API_SERVER_ENABLED=true, API_SERVER_KEY=…).
                    The key comes from the HERMES_API_KEY environment variable or --hermes-key-file;
                    it is never printed or logged. The gateway's state goes to <data dir>/hermes
  --hermes-key-file FILE   read Hermes's API_SERVER_KEY from FILE instead of HERMES_API_KEY
  --cert FILE       PEM certificate: serve HTTPS and WSS (needs --key)
  --key FILE        PEM private key for --cert
  --public-url URL  the https:// origin phones open (e.g. a reverse proxy in front of this server):
                    the printed pairing link and its QR code use it
  --data-dir DIR    where the gateway keeps its state and token (default ~/.iris-web)
  --token T         the gateway's token, 16 characters or more (default: made on first start,
                    kept in the data dir)
  --allowed-origin URL
                    also accept the app's WebSocket from pages at this origin (repeatable), for a
                    reverse proxy that changes the Host header, e.g. https://iris.example.org
  --push-hosts LIST push services this server may send Web Push to, comma-separated (*.domain for
                    subdomains, * for any public host; default ${DEFAULT_PUSH_HOSTS.join(',')})
  --dist-dir DIR    the built app to serve (default: dist/ of this project, built on first start)
  -h, --help        show this help
`;

/** A startup failure the user can fix: one line on stderr, exit code 2. */
class CliError extends Error {}

interface CliConfig {
  host: string;
  port: number;
  upstream?: URL;
  tls?: { cert: Buffer; key: Buffer };
  publicUrl?: string;
  dataDir: string;
  token?: string;
  distDir: string;
  buildIfMissing: boolean;
  allowedOrigins: string[];
  pushHosts?: string[];
  hermes?: { url: URL; key?: string };
}

/** Shorter tokens can be guessed over the network; the generated one is 32 characters. */
const MIN_TOKEN_LENGTH = 16;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Output is a terminal: the QR code is painted in colours. */
  tty?: boolean;
}

const defaultIo: CliIo = {
  tty: process.stdout.isTTY === true,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Runs the serving process. Resolves with the exit code once it has stopped: 0 after a
 * SIGINT/SIGTERM shutdown or --help, 2 when it could not start (after one line on stderr).
 */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let config: CliConfig | 'help';
  let running: RunningServer;
  try {
    config = parseFlags(argv);
    if (config === 'help') {
      io.out(USAGE.trimEnd());
      return 0;
    }
    running = await start(config, io);
  } catch (error) {
    io.err(`iris: ${startupErrorMessage(error, argv)}`);
    return 2;
  }

  // The handlers go in before the first line is printed: whoever waits for the pairing link and then
  // stops us (a supervisor, a test) must get the clean shutdown, never the default kill.
  const stopped = new Promise<number>((resolveExit) => {
    const shutdown = () => {
      process.off('SIGINT', shutdown);
      process.off('SIGTERM', shutdown);
      running.close().then(
        () => resolveExit(0),
        (error: unknown) => {
          io.err(`iris: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
          resolveExit(1);
        },
      );
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });

  const origin = config.publicUrl ?? localOrigin(config.host, running.port, running.secure);
  io.out(`Pairing link: ${pairingLink(origin, config.token)}`);
  const agent = running.gateway?.agent.describe();
  if (config.hermes && config.token !== undefined) io.out(`Gateway token: ${config.token}`);
  else if (config.token !== undefined) io.out(`Demo token: ${config.token}`);
  if (agent?.kind === 'hermes' && agent.problem) {
    io.err(`iris: ${agent.problem} The gateway runs anyway: the app shows a banner until Hermes answers.`);
  } else if (agent) {
    io.out(`Agent: ${agent.name}${agent.url ? ` at ${agent.url}` : ''}${agent.model ? ` (model ${agent.model})` : ''}`);
  } else if (config.upstream)
    io.out(`Gateway: /ws is relayed to ${describeUpstream(config.upstream)} (pair with that gateway's token)`);
  printForPhones(io, config, running);
  return stopped;
}

/**
 * How a phone gets here: the addresses on this network, and a QR code of the pairing link it can
 * open (the --public-url one, else the first address on the network). Nothing when only this machine
 * can connect.
 */
function printForPhones(io: CliIo, config: CliConfig, running: RunningServer): void {
  const lan = lanOrigins(config.host, running.port, running.secure);
  if (lan.length > 0) io.out(`On your network: ${lan.join('  ')}`);
  else if (config.host === '0.0.0.0' || config.host === '::') {
    io.out(
      'On your network: no address found (this machine has no network interface up), so only this machine can connect',
    );
  }
  const phoneOrigin = config.publicUrl ?? lan[0];
  if (phoneOrigin === undefined) return;
  const link = pairingLink(phoneOrigin, config.token);
  io.out('');
  io.out(`Scan to pair a phone (${phoneOrigin}):`);
  for (const line of terminalQr(link, io.tty ?? false)) io.out(line);
  if (!phoneOrigin.startsWith('https:')) {
    io.out('A phone needs HTTPS for notifications and to install the app: see "On your phone" in README.md.');
  }
}

function parseFlags(argv: string[]): CliConfig | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        gateway: { type: 'string' },
        cert: { type: 'string' },
        key: { type: 'string' },
        'public-url': { type: 'string' },
        'data-dir': { type: 'string' },
        token: { type: 'string' },
        'dist-dir': { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'push-hosts': { type: 'string' },
        hermes: { type: 'string' },
        'hermes-key-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliError(flagErrorMessage(error));
  }
  if (values.help) return 'help';

  for (const name of [
    'port',
    'host',
    'gateway',
    'cert',
    'key',
    'public-url',
    'data-dir',
    'token',
    'dist-dir',
    'push-hosts',
    'hermes',
    'hermes-key-file',
  ] as const) {
    if (values[name] === '') throw new CliError(`--${name} needs a value (see --help)`);
  }
  const allowedOrigins: string[] = [];
  for (const text of values['allowed-origin'] ?? []) {
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin === 'null') {
      throw new CliError(`--allowed-origin needs an origin like https://iris.example.org, not "${text.slice(0, 100)}"`);
    }
    allowedOrigins.push(url.origin);
  }
  let pushHosts: string[] | undefined;
  if (values['push-hosts'] !== undefined) {
    try {
      pushHosts = parsePushHosts(values['push-hosts']);
    } catch (error) {
      throw new CliError(`--push-hosts: ${(error as Error).message}`);
    }
  }
  const port = values.port === undefined ? DEFAULT_PORT : parsePort(values.port);
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new CliError('--cert and --key go together: give both files to serve HTTPS, or neither');
  }
  let upstream: URL | undefined;
  if (values.gateway !== undefined) {
    try {
      upstream = parseUpstreamUrl(values.gateway);
    } catch (error) {
      throw new CliError(`--gateway: ${(error as Error).message}`);
    }
    if (values.token !== undefined) {
      throw new CliError("--token is the demo gateway's token; with --gateway, pair with that gateway's own token");
    }
  }
  // The token itself is never echoed: only its length is at fault.
  if (values.token !== undefined && values.token.length < MIN_TOKEN_LENGTH) {
    throw new CliError(
      `--token must be at least ${MIN_TOKEN_LENGTH} characters (leave it out to have a strong one made)`,
    );
  }
  if (values.hermes !== undefined && upstream)
    throw new CliError(
      '--hermes and --gateway exclude each other: the gateway is either ours (with Hermes as its agent) or relayed',
    );
  if (values['hermes-key-file'] !== undefined && values.hermes === undefined)
    throw new CliError('--hermes-key-file goes with --hermes');
  let hermes: CliConfig['hermes'];
  try {
    hermes =
      values.hermes !== undefined
        ? { url: hermesTarget(values.hermes), ...readHermesKey(values['hermes-key-file']) }
        : undefined;
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const dataDir = resolve(values['data-dir'] ?? join(homedir(), '.iris-web'));
  let publicUrl: string | undefined;
  if (values['public-url'] !== undefined) {
    try {
      publicUrl = parsePublicUrl(values['public-url']);
    } catch (error) {
      throw new CliError(`--public-url ${(error as Error).message}`);
    }
  }
  const tls =
    values.cert !== undefined && values.key !== undefined
      ? { cert: readPem(values.cert, 'certificate'), key: readPem(values.key, 'key') }
      : undefined;
  return {
    host: values.host ?? '0.0.0.0',
    port,
    ...(upstream ? { upstream } : {}),
    ...(tls ? { tls } : {}),
    // Hermes's conversations are not the demo's: the gateway keeps them (and its own token) apart.
    dataDir: hermes ? join(dataDir, 'hermes') : dataDir,
    ...(hermes ? { hermes } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    distDir: resolve(values['dist-dir'] ?? DEFAULT_DIST),
    buildIfMissing: values['dist-dir'] === undefined,
    allowedOrigins,
    ...(pushHosts ? { pushHosts } : {}),
  };
}

function parsePort(text: string): number {
  // The value is not echoed: a mistyped command line may hold the token in its place.
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new CliError('--port needs a number from 0 to 65535');
  return Number(text);
}

function readPem(file: string, what: 'certificate' | 'key'): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError(`cannot read the ${what} file ${file} (${code})`);
  }
}

async function start(config: CliConfig, io: CliIo): Promise<RunningServer> {
  // The default folder is this checkout's own build: built again when missing, cut short or of other sources.
  const state = buildState(config.distDir, config.buildIfMissing ? PROJECT_ROOT : undefined);
  if (state !== 'built') {
    if (!config.buildIfMissing)
      throw new CliError(`no built app in ${config.distDir} (no finished build there: run npm run build)`);
    io.err(
      state === 'stale'
        ? "iris: the app's sources changed since its last build, building it again (vite build)…"
        : 'iris: the app is not built yet (or its last build did not finish), building it (vite build)…',
    );
    try {
      await buildApp(PROJECT_ROOT);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    if (buildState(config.distDir) !== 'built')
      throw new CliError(`vite build finished but ${config.distDir} holds no finished build`);
  }
  try {
    ensureDataDir(config.dataDir);
  } catch (error) {
    throw new CliError(
      `cannot create the data directory ${config.dataDir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (!config.upstream && config.token === undefined) {
    try {
      config.token = loadOrCreateDemoToken(config.dataDir);
    } catch (error) {
      throw new CliError(
        `cannot keep the demo token in ${config.dataDir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  let agent: HermesAgent | undefined;
  if (config.hermes) {
    agent = new HermesAgent({
      url: config.hermes.url.href.replace(/\/+$/, ''),
      ...(config.hermes.key ? { key: config.hermes.key } : {}),
    });
    await agent.probe();
  }
  const options: ServerOptions = {
    distDir: config.distDir,
    ...(agent ? { gateway: { agent } } : {}),
    host: config.host,
    port: config.port,
    dataDir: config.dataDir,
    ...(config.tls ? { tls: config.tls } : {}),
    ...(config.upstream ? { upstream: config.upstream } : { token: config.token! }),
    ...(config.allowedOrigins.length > 0 ? { allowedOrigins: config.allowedOrigins } : {}),
    ...(config.pushHosts ? { push: { pushHosts: config.pushHosts } } : {}),
  };
  return startServer(options);
}

function flagErrorMessage(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  // parseArgs quotes the option as '--port', '--port <value>' or '-h, --help'.
  const flag = /'(?:-[A-Za-z], )?(-{1,2}[^' ,]+)/.exec(message ?? '')?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag ?? ''} (see --help)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message ?? '')
        ? `${flag ?? 'this option'} takes no value (see --help)`
        : `${flag ?? 'an option'} needs a value (see --help)`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument: every option starts with -- (see --help)';
    default:
      return `cannot read the command line (see --help)`;
  }
}

/** One line for anything that stopped the start. Never a stack trace; never the token. */
function startupErrorMessage(error: unknown, argv: string[]): string {
  if (error instanceof CliError) return error.message;
  const err = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (err.syscall === 'listen') {
    const port = err.port ?? Number(argv[argv.indexOf('--port') + 1] ?? DEFAULT_PORT);
    if (err.code === 'EADDRINUSE') return `port ${port} is already in use (try --port ${port + 1})`;
    if (err.code === 'EACCES')
      return `no permission to listen on port ${port} (ports below 1024 need privileges; try --port ${DEFAULT_PORT})`;
    if (err.code === 'EADDRNOTAVAIL')
      return `cannot listen on ${err.address ?? 'that host'}: no such address on this machine (check --host)`;
  }
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return 'cannot listen there: the --host name does not resolve';
  const message = err.message ?? String(error);
  if (/PEM|ASN1|asn1|x509|X509|key values mismatch|DECODER|no start line/i.test(message)) {
    return /key values mismatch/.test(message)
      ? 'the key does not match the certificate (--cert/--key)'
      : `the certificate or key is not valid PEM (${message.split('\n', 1)[0]})`;
  }
  return message.split('\n', 1)[0]!;
}
