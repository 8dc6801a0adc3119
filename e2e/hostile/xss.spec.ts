// Issue 9, hostile input: a gateway sends the XSS corpus through every field the app renders, on
// every screen that shows it. Nothing may run, open a dialog, leave the origin, violate the CSP, or
// leave active markup in the DOM.
import { expect, test, type Page } from '@playwright/test';
import { expectLanded, pairAndOpen } from '../support';
import { startHostile, type Frame, type HostileSetup, type Json } from './hostile-gateway';
import { watchForAttacks, type AttackWatch } from './watch';
import { XSS_VECTORS as V } from './xss-corpus';

const LANE = 'web:default';
const at = (i: number) => V[i % V.length]!;
/** Several vectors in one string: a field that holds one line of text still gets all of them. */
const bundle = (from: number, n: number) => Array.from({ length: n }, (_, k) => at(from + k)).join('\n');
const SVG_WITH_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg" onload="__pwned('svg')"><script>__pwned('svg-script')</script><image href="http://evil.invalid/svg.png"/><rect width="10" height="10"/></svg>`;

let hostile: HostileSetup;
let barriers = 0;

/** Sends a marker message after everything emitted so far and waits until the app has stored it. */
async function barrier(page: Page, timeoutMs = 120_000): Promise<void> {
  const id = `barrier-${++barriers}`;
  hostile.gateway.emit({
    type: 'message',
    chat_id: 'web:barrier',
    payload: { message_id: id, role: 'system', text: 'barrier', ts: 1 },
  });
  await expect
    .poll(
      () =>
        page.evaluate(async (messageId) => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const req = indexedDB.open('iris');
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          });
          try {
            return await new Promise<boolean>((resolve) => {
              const req = db.transaction('messages').objectStore('messages').get(messageId);
              req.onsuccess = () => resolve(req.result !== undefined);
              req.onerror = () => resolve(false);
            });
          } finally {
            db.close();
          }
        }, id),
      { timeout: timeoutMs, intervals: [200] },
    )
    .toBe(true);
}

test.afterEach(async () => {
  await hostile?.close();
});

async function expectClean(watch: AttackWatch, where: string): Promise<void> {
  await watch.audit(where);
  expect(await watch.problems(), where).toEqual([]);
}

/** Scrolls a scroll container from top to bottom in screenfuls, letting virtualized rows render, opening collapsed parts. */
async function walkThrough(page: Page, container: string, watch: AttackWatch, where: string): Promise<number> {
  const box = page.locator(container).first();
  await box.evaluate((el) => {
    const scroller = (function find(e: Element | null): Element {
      for (let x = e; x; x = x.parentElement)
        if (x.scrollHeight > x.clientHeight + 2 && getComputedStyle(x).overflowY !== 'visible') return x;
      return document.scrollingElement!;
    })(el);
    scroller.setAttribute('data-walk', '');
    scroller.scrollTop = 0;
  });
  for (let step = 0; step < 400; step++) {
    await page.waitForTimeout(60);
    // Open what is collapsed (reasoning, tool details) so its content renders too; menus stay shut.
    await page.evaluate((selector) => {
      for (const root of document.querySelectorAll(selector)) {
        for (const t of root.querySelectorAll<HTMLElement>('[aria-expanded="false"]')) {
          const label = t.getAttribute('aria-label') ?? t.textContent ?? '';
          if (t.getAttribute('aria-haspopup') || /more|actions|menu/i.test(label)) continue;
          t.click();
        }
        for (const d of root.querySelectorAll('details:not([open])')) d.setAttribute('open', '');
      }
    }, container);
    if (step % 5 === 0) await watch.audit(`${where}, screen ${step}`);
    const done = await page.evaluate(() => {
      const s = document.querySelector('[data-walk]')!;
      const before = s.scrollTop;
      s.scrollTop += s.clientHeight * 0.8;
      return s.scrollTop === before;
    });
    if (done) {
      await expectClean(watch, where);
      return step + 1;
    }
  }
  await expectClean(watch, where);
  return 400;
}

test('the XSS corpus through every rendered field runs nothing, loads nothing and breaks no CSP rule', async ({
  page,
}) => {
  test.setTimeout(420_000);
  expect(V.length).toBeGreaterThanOrEqual(100);

  hostile = await startHostile({
    // Channel names and icons (colour: a CSS injection that must be refused).
    channels: V.map((v, i) => ({
      chat_id: `web:x${i}`,
      name: v,
      kind: 'channel',
      icon: v,
      color: `red;background:url(http://evil.invalid/c${i}.png)`,
    })),
    onRequest(frame, reply) {
      const p = (frame.payload ?? {}) as Json;
      if (frame.type === 'search') {
        reply({
          type: 'search.results',
          id: frame.id,
          payload: {
            query: p.query,
            scope: 'all',
            hits: V.map((v, i) => ({
              message_id: `m${i}`,
              chat_id: i % 4 === 0 ? v : i % 4 === 1 ? `web:x${i}` : LANE,
              thread_id: i % 7 === 0 ? v : null,
              role: 'assistant',
              snippet: `${p.query} ${v}`,
              ts: Date.now() - i,
            })),
          },
        });
        return true;
      }
      if (frame.type === 'commands.catalog' || frame.type === 'commands.complete') {
        const commands = V.map((v, i) => ({
          name: i % 2 ? `/${v}` : v,
          description: v,
          args_hint: at(i + 1),
          category: at(i + 2),
        }));
        reply({
          type: frame.type,
          id: frame.id,
          payload: frame.type === 'commands.catalog' ? { commands } : { prefix: p.prefix, matches: commands },
        });
        return true;
      }
      if (frame.type === 'media.pull') {
        // An "image" that is an SVG with a script and a remote load: shown as an image, it must stay inert.
        hostile.gateway.emit(Buffer.from(SVG_WITH_SCRIPT));
        reply({ type: 'media.pull.end', id: frame.id, payload: { ok: true } });
        return true;
      }
      if (frame.type === 'history') {
        const messages = V.slice(0, 40).map((v, i) => ({
          message_id: `h${i}`,
          role: i % 2 ? 'assistant' : 'user',
          text: v,
          reasoning: v,
          model: v,
          ts: 1_000 + i,
        }));
        reply({ type: 'history', id: frame.id, chat_id: frame.chat_id, payload: { messages, has_more: false } });
        return true;
      }
      return false;
    },
  });
  const { gateway, origin } = hostile;
  const watch = await watchForAttacks(page, origin);
  await page.setViewportSize({ width: 1280, height: 900 });
  await pairAndOpen(page, hostile);

  // --- The lane: message text, reasoning, model, roles; streamed turns with tools and commentary; media. ---
  const frames: Frame[] = [];
  V.forEach((v, i) => {
    frames.push({
      type: 'message',
      chat_id: LANE,
      payload: {
        message_id: `m${i}`,
        role: ['assistant', 'user', 'system', 'cron'][i % 4],
        text: v,
        reasoning: at(i + 1),
        model: at(i + 2),
        tokens: i,
        ts: 10_000 + i,
      },
    });
  });
  for (let t = 0; t * 10 < V.length; t++) {
    const id = `turn${t}`;
    frames.push({ type: 'agent.busy', chat_id: LANE, payload: { reason: 'processing' } });
    frames.push({ type: 'message.start', chat_id: LANE, payload: { message_id: id, role: 'assistant' } });
    for (let k = 0; k < 10; k++) {
      const i = t * 10 + k;
      frames.push({ type: 'commentary', chat_id: LANE, payload: { message_id: `${id}-c${k}`, text: at(i) } });
      frames.push({
        type: 'tool.start',
        chat_id: LANE,
        payload: {
          index: k,
          name: at(i),
          preview: at(i + 1),
          args: { [at(i)]: at(i + 2), nested: { html: at(i + 3) }, list: [at(i + 4)] },
        },
      });
      frames.push({ type: 'tool.progress', chat_id: LANE, payload: { index: k, name: at(i), note: at(i + 5) } });
      frames.push({
        type: 'tool.end',
        chat_id: LANE,
        payload: { index: k, name: at(i), ok: k % 2 === 0, duration: 0.5, output_preview: at(i + 6) },
      });
      frames.push({ type: 'message.update', chat_id: LANE, payload: { message_id: id, text: bundle(i, 3) } });
    }
    frames.push({
      type: 'message.stop',
      chat_id: LANE,
      payload: {
        message_id: id,
        final_text: bundle(t * 10, 10),
        reasoning: bundle(t * 10 + 5, 10),
        model: at(t),
        tokens: 5,
        ts: 20_000 + t,
      },
    });
    frames.push({ type: 'agent.idle', chat_id: LANE, payload: {} });
  }
  V.forEach((v, i) => {
    frames.push({
      type: 'media.offer',
      chat_id: LANE,
      payload: {
        media_id: `med${i}`,
        kind: ['document', 'audio', 'video', 'voice'][i % 4],
        mime: i % 2 ? 'text/html' : `${v}/x`,
        size: 10 + i,
        filename: v,
        message_id: `m${i}`,
      },
    });
  });
  frames.push({
    type: 'media.offer',
    chat_id: LANE,
    payload: {
      media_id: 'medsvg',
      kind: 'image',
      mime: 'image/svg+xml',
      size: SVG_WITH_SCRIPT.length,
      filename: at(3),
      message_id: 'm0',
    },
  });
  for (const f of frames) gateway.emit(f);
  await barrier(page);
  await expect(page.getByRole('log', { name: 'Messages' }).getByRole('article').first()).toBeVisible();
  // Hundreds of messages: the walk must take many screens (a list that never scrolled proves nothing).
  expect(await walkThrough(page, '[role="log"]', watch, 'lane')).toBeGreaterThan(20);

  // --- Channels: hostile names, icons and colours in the sidebar. ---
  await walkThrough(page, 'nav, .shell-sidebar', watch, 'channel list');

  // --- Pickers: titles, questions, choices, commands, descriptions; each dialog, then the pending chips. ---
  let pickers = 0;
  V.forEach((v, i) => {
    gateway.emit({
      type: 'picker.choice',
      chat_id: LANE,
      payload: {
        picker_id: `pc${i}`,
        title: v,
        choices: [0, 1, 2].map((k) => ({ value: at(i + k), label: at(i + k + 1), is_current: k === 0 })),
      },
    });
    pickers++;
  });
  for (let i = 0; i < V.length; i += 12) {
    gateway.emit({
      type: 'picker.clarify',
      chat_id: LANE,
      payload: {
        picker_id: `pq${i}`,
        question: bundle(i, 12),
        choices: [0, 1, 2].map((k) => ({ value: at(i + k), label: at(i + k + 3) })),
      },
    });
    gateway.emit({
      type: 'picker.approval',
      chat_id: LANE,
      payload: { picker_id: `pa${i}`, command: bundle(i, 12), description: bundle(i + 6, 12) },
    });
    gateway.emit({
      type: 'picker.confirm',
      chat_id: LANE,
      payload: { picker_id: `pf${i}`, title: bundle(i, 12), message: bundle(i + 3, 12) },
    });
    pickers += 3;
  }
  gateway.emit({
    type: 'picker.model',
    chat_id: LANE,
    payload: {
      picker_id: 'pm',
      current_model: at(1),
      current_provider: at(2),
      providers: [0, 40, 80].map((p) => ({
        id: at(p),
        label: at(p + 1),
        models: V.slice(p, p + 40).map((v, k) => ({ id: v, label: at(p + k + 1) })),
      })),
    },
  });
  pickers++;
  await barrier(page);
  for (let n = 0; n < pickers; n++) {
    const dialog = page.getByRole('dialog').first();
    await expect(dialog).toBeVisible();
    if (n % 10 === 0) await watch.audit(`picker ${n}`);
    await page.keyboard.press('Escape');
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectClean(watch, 'pickers and pending-question chips');

  // --- Notifications as toasts, three at a time (more than the two shown at once). ---
  for (let i = 0; i < V.length; i += 3) {
    for (let k = i; k < Math.min(V.length, i + 3); k++) {
      gateway.emit({
        type: 'notification',
        chat_id: k % 2 ? LANE : at(k),
        payload: {
          kind: ['generic', 'cron', 'approval', 'clarify', 'channel_created', at(k)][k % 6],
          title: at(k),
          body: at(k + 1),
          ts: Date.now(),
        },
      });
    }
    await barrier(page);
    await page.waitForTimeout(50);
    if (i % 30 === 0) await watch.audit(`toasts ${i}`);
  }
  // Unsolicited gateway errors with hostile messages (shown in words somewhere, or ignored).
  for (let i = 0; i < V.length; i += 10)
    gateway.emit({
      type: 'error',
      payload: { code: ['internal', 'rate_limited', 'unsupported', at(i)][i % 4], message: bundle(i, 10) },
    });
  await barrier(page);
  await page.waitForTimeout(300);
  await expectClean(watch, 'toasts');

  // --- The slash-command menu: hostile command names, descriptions and hints. ---
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/');
  await page.waitForTimeout(800);
  await walkThrough(page, '[role="listbox"], form.composer', watch, 'slash menu');
  await box.fill('');

  // --- Search results: hostile snippets and lanes. ---
  await page.goto(`${origin}/#/search`);
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('img');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Results' })).toBeVisible();
  await walkThrough(page, '.search-results', watch, 'search results');

  // --- Settings, with a hostile status frame on the way. ---
  gateway.emit({ type: 'status', payload: { state: at(5), session: { model: at(6), [at(7)]: at(8) } } });
  await barrier(page);
  await page.goto(`${origin}/#/settings`);
  await expect(page.getByRole('heading', { name: 'Gateway' })).toBeVisible();
  await walkThrough(page, 'main', watch, 'settings');

  // --- Back to the lane after a reload: everything comes from the DB this time. ---
  await page.goto(`${origin}/#/c/${encodeURIComponent(LANE)}`);
  await page.reload();
  await expect(page.getByRole('log', { name: 'Messages' }).getByRole('article').first()).toBeVisible();
  await walkThrough(page, '[role="log"]', watch, 'lane after reload');
  // And a hostile channel's own lane (its name in the top bar and the page title).
  await page.goto(`${origin}/#/c/${encodeURIComponent('web:x6')}`);
  await expect(page.getByRole('log', { name: 'Messages' })).toBeVisible();
  await expectClean(watch, 'hostile channel lane');

  // On a phone the channels are in a drawer: open it and go through it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Channels' }).click();
  await expect(page.getByRole('navigation', { name: 'Channels' })).toBeVisible();
  await walkThrough(page, 'nav', watch, 'channel drawer');
});

test('the watch catches what a working attack would do', async ({ page }) => {
  hostile = await startHostile();
  const watch = await watchForAttacks(page, hostile.origin);
  await page.goto(hostile.pairingLink);
  await expectLanded(page);
  expect(await watch.problems()).toEqual([]);
  // As if a vector had got through: markup in the DOM, a handler run, a dialog, a foreign load.
  await page.evaluate(() => {
    const div = document.createElement('div');
    div.innerHTML = '<img src="http://evil.invalid/x.png" onerror="__pwned(1)"><a href="javascript:void 0">x</a>';
    document.body.append(div);
    (window as unknown as { __pwned(n: number): void }).__pwned(2);
    const s = document.createElement('script');
    s.textContent = '__pwned(3)';
    document.body.append(s);
  });
  page.once('dialog', () => undefined);
  await page.evaluate(() => setTimeout(() => alert('x'), 0));
  await page.waitForTimeout(500);
  await watch.audit('injected');
  const problems = (await watch.problems()).join('\n');
  expect(problems).toContain('a script ran: __pwned(2)');
  expect(problems).toContain('a alert dialog opened');
  expect(problems).toMatch(/CSP violation: (script-src|script-src-elem) inline/); // the inline script was refused
  expect(problems).toMatch(/CSP violation: img-src http:\/\/evil\.invalid/);
  expect(problems).toContain('<img onerror=…>');
  expect(problems).toContain('<a href="javascript:void 0">');
  expect(problems).not.toContain('__pwned(3)'); // CSP stopped it
});
