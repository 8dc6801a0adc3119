// The page's first connect on a slow network: no banner comes and goes (it would move the whole page,
// a layout shift a phone's user sees and Lighthouse counts), and the app still ends up online.
import { expect, test, PHONE, anotherDeviceSays, pageTitle, pairAndOpen } from './support';

test.use({ viewport: PHONE });

test('a first connect that takes seconds shows no banner and moves nothing on the page', async ({ page, iris }) => {
  await pairAndOpen(page, iris);
  await expect(pageTitle(page)).toHaveText('General');

  // From now on the socket opens two seconds late, as over a slow mobile network.
  let opened = false;
  await page.routeWebSocket(/\/ws$/, async (ws) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    ws.connectToServer();
    opened = true;
  });
  await page.addInitScript(() => {
    const seen = { banner: false, shellShifts: 0 };
    (window as unknown as { __firstConnect: typeof seen }).__firstConnect = seen;
    new MutationObserver(() => {
      if (document.querySelector('.connection-banner')) seen.banner = true;
    }).observe(document, { childList: true, subtree: true });
    // Shifts of the page under the banner (a new message moving the log is the lane's own business).
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { sources: { node?: Node | null }[] })[]) {
        if (entry.sources.some((s) => s.node instanceof Element && s.node.matches('.shell-body, .shell-content')))
          seen.shellShifts++;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.reload();
  await expect(pageTitle(page)).toHaveText('General');
  await expect.poll(() => opened, { timeout: 20_000 }).toBe(true);
  // Online: what another device says reaches this page live.
  await anotherDeviceSays(iris, 'web:default', 'hello after a slow connect');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('hello after a slow connect');
  const seen = await page.evaluate(
    () => (window as unknown as { __firstConnect: { banner: boolean; shellShifts: number } }).__firstConnect,
  );
  expect(seen.banner).toBe(false);
  expect(seen.shellShifts).toBe(0);
});
