// The serving process started as `npm start` starts it (the real CLI, server/main.ts), for the tests that
// follow README's recipes: it prints the pairing link a person opens. It serves the build the suite runs
// against (`--dist-dir dist`, unless the test names one): left to its default it would build the app again
// when a source changed since that build, under the other tests' feet.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface StartedCli {
  child: ChildProcess;
  /** Everything it printed so far. */
  stdout(): string;
  /** The "Pairing link: …" it printed. */
  link: string;
  stop(): Promise<void>;
}

export async function startCli(args: string[]): Promise<StartedCli> {
  const dist = args.includes('--dist-dir') ? [] : ['--dist-dir', 'dist'];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...dist, ...args], {
    cwd: resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  const link = await new Promise<string>((resolveLink, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CLI printed no pairing link: ${stderr}`)), 45_000);
    const look = () => {
      const found = /^Pairing link: (\S+)$/m.exec(stdout)?.[1];
      if (found && /^Agent: /m.test(stdout)) {
        clearTimeout(timer);
        resolveLink(found);
      }
    };
    child.stdout!.on('data', look);
    child.on('close', (code) => reject(new Error(`the CLI exited ${code}: ${stderr}`)));
  });
  return {
    child,
    stdout: () => stdout,
    link,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
