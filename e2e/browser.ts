// Which Chromium the browser tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else
// Playwright's own build (installed on first use; machines without network must install Debian's).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  if (existsSync(chromium.executablePath())) return undefined;
  console.error(
    "iris: no Chromium found at /usr/bin/chromium; installing Playwright's Chromium once " +
      '(on Debian/Ubuntu without network use: apt-get install -y chromium, or set CHROMIUM_PATH).',
  );
  try {
    execSync('npx playwright install chromium', { stdio: 'inherit' });
  } catch {
    throw new Error(
      'iris: could not install a Chromium. Install one with `apt-get install -y chromium` or set CHROMIUM_PATH.',
    );
  }
  return undefined;
}
