// Renders public/icons/icon.svg into the PNG icons the manifest lists (run after changing the SVG;
// the PNGs are committed). Uses the same Chromium as the browser tests, so no image library is needed.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../e2e/browser';

const svg = readFileSync('public/icons/icon.svg', 'utf8');
const outputs = [
  { file: 'public/icons/icon-192.png', size: 192, maskable: false },
  { file: 'public/icons/icon-512.png', size: 512, maskable: false },
  { file: 'public/icons/maskable-192.png', size: 192, maskable: true },
  { file: 'public/icons/maskable-512.png', size: 512, maskable: true },
  { file: 'public/icons/apple-touch-icon.png', size: 180, maskable: true },
  { file: 'public/icons/badge-96.png', size: 96, maskable: false, badge: true },
];

const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
for (const out of outputs) {
  const page = await browser.newPage({ viewport: { width: out.size, height: out.size } });
  // "any" icons get rounded corners; maskable ones fill the square (the platform masks them).
  const radius = out.maskable ? 0 : out.size * 0.22;
  const body =
    'badge' in out
      ? // A monochrome badge: white glyph on transparent (Android tints it).
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><circle cx="48" cy="48" r="30" fill="none" stroke="#fff" stroke-width="10"/><circle cx="48" cy="48" r="11" fill="#fff"/></svg>`
      : svg;
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><div style="width:${out.size}px;height:${out.size}px;border-radius:${radius}px;overflow:hidden">${body.replace('<svg ', `<svg width="${out.size}" height="${out.size}" `)}</div></body></html>`,
  );
  await page.screenshot({ path: out.file, omitBackground: true });
  await page.close();
  console.log('wrote', out.file);
}
await browser.close();
