import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Runs `vite build` in the project root, its output shown on stderr (stdout stays the pairing lines); rejects if it fails. */
export function buildApp(projectRoot: string): Promise<void> {
  const viteBin = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const [command, args] = existsSync(viteBin) ? [process.execPath, [viteBin, 'build']] : ['npx', ['vite', 'build']];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args as string[], { cwd: projectRoot, stdio: ['ignore', 2, 2] });
    child.on('error', (error) => reject(new Error(`could not run vite to build the app (${error.message})`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `building the app failed (vite build ${signal ? `was killed by ${signal}` : `exited with code ${code}`})`,
          ),
        );
    });
  });
}
