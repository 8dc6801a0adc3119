// The serving process started as `npm start` starts it (the real CLI, server/main.ts), for the tests that
// follow README's recipes: it prints the pairing link a person opens.
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
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
