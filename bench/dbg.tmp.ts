import { launchBrowser, newBenchPage, newContext, waitPainted } from './lib/browser';
import { prepareSite } from './lib/pages';
import { deadGatewayUrl, startBenchServer } from './lib/server';
const site = await prepareSite(() => {});
const browser = await launchBrowser();
const server = await startBenchServer(site.dir, false);
for (let i = 0; i < 4; i++) {
  const context = await newContext(browser);
  const sp = await context.newPage();
  await sp.goto(`${server.url}/bench/pages/seed.html`);
  await sp.waitForFunction(() => 'bench' in window);
  await sp.evaluate((args) => (window as any).bench.seedLane(args), { lane: 'web:default', count: 500, newestMarker: 'NEWX', oldestMarker: 'OLDX', gatewayUrl: await deadGatewayUrl(), token: 't' });
  await sp.close();
  const { page } = await newBenchPage(context, site.instrument, { paintNeedles: ['NEWX'] }, 1);
  const path = i % 2 ? '/#/c/web%3Adefault' : '/bench/bare/cold-start.html#lane=web%3Adefault';
  await page.goto(server.url + path);
  const t = await waitPainted(page, 'NEWX', 30000, 'x');
  const nav = await page.evaluate(() => JSON.stringify(performance.getEntriesByType('navigation')[0]!.toJSON()));
  const n = JSON.parse(nav);
  console.log(path, t.toFixed(0), 'resp', n.responseEnd.toFixed(0), 'dcl', n.domContentLoadedEventEnd.toFixed(0), 'load', n.loadEventEnd.toFixed(0));
  await context.close();
}
await server.close(); await browser.close();
