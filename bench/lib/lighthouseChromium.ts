// A Chromium for Lighthouse: the e2e tests' executable and flags, a throwaway profile, a DevTools
// port for Lighthouse (and Playwright, to pair the profile first), and no way out: every host name
// but the loopback ones resolves to nothing, so neither the page nor the browser can reach outside.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../e2e/browser';

export interface LighthouseChromium {
  port: number;
  close(): Promise<void>;
}

/** Chromium's flag for "resolve nothing but this machine": a blocked fetch fails at DNS, and shows in the log. */
const OFFLINE_RESOLVER = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1';

export async function launchLighthouseChromium(): Promise<LighthouseChromium> {
  const executable = chromiumExecutable();
  if (!executable)
    throw new Error('Lighthouse needs a Chromium on disk: set CHROMIUM_PATH or install Debian’s chromium');
  const profile = mkdtempSync(join(tmpdir(), 'iris-lighthouse-'));
  const child: ChildProcess = spawn(
    executable,
    [
      ...CHROMIUM_ARGS,
      OFFLINE_RESOLVER,
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium printed no DevTools address in 30 s: ${seen.slice(-500)}`)),
      30_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened: ${seen.slice(-500)}`));
    });
  });
  child.stderr!.resume();
  return {
    port,
    async close() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      // Chromium's helper processes can still be writing into the profile for a moment after the browser
      // has exited (a directory then refuses to go: ENOTEMPTY): retried, and a leftover in /tmp is no
      // reason to throw away the measurements.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (err) {
        console.warn(`bench: could not remove the Lighthouse profile ${profile}: ${(err as Error).message}`);
      }
    },
  };
}

/**
 * Refuses, while `work` runs, every TCP connection this Node process opens to anything but the
 * loopback (Lighthouse's optional error reporting, an update check): returns what it refused.
 */
export async function withoutOutsideConnections<T>(work: () => Promise<T>): Promise<{ result: T; refused: string[] }> {
  const refused: string[] = [];
  const original = Socket.prototype.connect;
  const loopback = (host: unknown) =>
    host === undefined ||
    host === 'localhost' ||
    host === '::1' ||
    (typeof host === 'string' && host.startsWith('127.'));
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: unknown; path?: unknown } | number | string;
    const host =
      typeof options === 'object' && options !== null
        ? options.host
        : typeof args[1] === 'string'
          ? args[1]
          : undefined;
    const isPipe = typeof options === 'object' && options !== null && typeof options.path === 'string';
    if (!isPipe && !loopback(host)) {
      refused.push(String(host));
      // Next tick, so the caller has attached its listeners; an error nobody listens for would end the bench.
      const error = new Error(`the bench refuses connections outside this machine (${String(host)})`);
      process.nextTick(() => (this.listenerCount('error') > 0 ? this.destroy(error) : this.destroy()));
      return this;
    }
    return (original as (...a: unknown[]) => Socket).apply(this, args);
  } as typeof Socket.prototype.connect;
  try {
    return { result: await work(), refused };
  } finally {
    Socket.prototype.connect = original;
  }
}
