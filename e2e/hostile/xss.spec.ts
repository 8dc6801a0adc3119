// Issues 4 and 9, hostile input: whatever a gateway puts in a field the app renders is shown inert, on
// every screen that shows it. Nothing may run, open a dialog, leave the origin, violate the CSP, or leave
// active markup in the DOM. One corpus (./xss-corpus.ts) and one watch (./watch.ts) for every test: from
// the demo gateway's history and live turns (the conversation), and from the hostile gateway through
// every field and screen.
import type { Page } from '@playwright/test';
import { TestClient } from '../../server/gateway/testclient';
import { expect, expectLanded, LANE, messages, pairAndOpen, speakForGateway, test } from '../support';
import { startHostile, type Frame, type HostileSetup, type Json } from './hostile-gateway';
import { watchForAttacks, type AttackWatch } from './watch';
import { XSS_VECTORS as V } from './xss-corpus';

const at = (i: number) => V[i % V.length]!;
/** Several vectors in one string: a field that holds one line of text still gets all of them. */
const bundle = (from: number, n: number) => Array.from({ length: n }, (_, k) => at(from + k)).join('\n');
const HOSTILE_NAME =
  '<img src=x onerror="window.__pwned(\'channel\')">General<script>window.__pwned("channel-script")</script>';
const SVG_WITH_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg" onload="__pwned('svg')"><script>__pwned('svg-script')</script><image href="http://evil.invalid/svg.png"/><rect width="10" height="10"/></svg>`;

let hostile: HostileSetup | undefined;
let barriers = 0;

/** Sends a marker message after everything emitted so far and waits until the app has stored it. */
async function barrier(page: Page, timeoutMs = 120_000): Promise<void> {
  const id = `barrier-${++barriers}`;
  hostile!.gateway.emit({
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
  hostile = undefined;
});

async function expectClean(watch: AttackWatch, where: string): Promise<void> {
  await watch.audit(where);
  expect(await watch.problems(), where).toEqual([]);
}

/** Two frames painted: what a scroll, an expanded part or a stored frame asked for is on screen. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Everything that could still fire has had its turn: each image and player has loaded or failed (an
 * onerror would run then), and two frames have been painted since.
 */
async function loadsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement | HTMLMediaElement>('img, video, audio')].every((el) =>
      el instanceof HTMLImageElement ? el.complete : el.networkState !== HTMLMediaElement.NETWORK_LOADING,
    ),
  );
  await painted(page);
}

/** Nothing ran, opened, left the origin or broke the CSP, and the DOM holds no active markup. */
async function expectNoHarm(page: Page, watch: AttackWatch, where: string): Promise<void> {
  await loadsSettled(page);
  await expectClean(watch, where);
}

/** Walks the list from the newest message to the oldest, expanding every reasoning and tool output on the way. */
async function renderEverything(page: Page): Promise<void> {
  const log = messages(page);
  const expandVisible = () =>
    log.evaluate((el) => {
      el.querySelectorAll<HTMLButtonElement>('button[aria-expanded="false"]').forEach((b) => b.click());
    });
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
  for (let i = 0; i < 400; i++) {
    await painted(page);
    await expandVisible();
    const done = await log.evaluate((el) => {
      if (el.scrollTop <= 0) return el.textContent?.includes('This is the beginning of the conversation.') ?? false;
      el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight * 0.8);
      return false;
    });
    if (done) break;
  }
  await expect(log.getByText('This is the beginning of the conversation.')).toBeVisible();
  await expandVisible();
}

/** What the DOM of the list must never contain, whatever came in. */
async function assertInertDom(page: Page): Promise<void> {
  const problems = await messages(page).evaluate((log) => {
    const found: string[] = [];
    const origin = location.origin;
    for (const el of log.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) {
        if (attr.startsWith('on')) found.push(`${el.tagName} has ${attr}`);
      }
    }
    for (const el of log.querySelectorAll('.md *, .tool-card *, .commentary *')) {
      // The app's own decorative icon on a tool card.
      if (el.closest('.tool-head > svg[aria-hidden="true"]')) continue;
      const tag = el.tagName.toLowerCase();
      if (
        [
          'script',
          'iframe',
          'object',
          'embed',
          'form',
          'input',
          'style',
          'link',
          'meta',
          'base',
          'svg',
          'math',
          'video',
          'audio',
          'template',
          'noscript',
        ].includes(tag)
      )
        found.push(`a <${tag}> element`);
      if (el.hasAttribute('style')) found.push(`${tag} with a style attribute`);
      if (el.hasAttribute('srcset')) found.push(`${tag} with srcset`);
      const href = el.getAttribute('href');
      if (href !== null) {
        const url = new URL(href, location.href);
        if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) found.push(`a link to ${href}`);
        if (el.getAttribute('target') !== '_blank') found.push(`a link without target=_blank: ${href}`);
        const rel = (el.getAttribute('rel') ?? '').split(/\s+/);
        if (!rel.includes('noopener') || !rel.includes('noreferrer'))
          found.push(`a link without rel=noopener noreferrer: ${href}`);
      }
      const src = el.getAttribute('src');
      if (src !== null) {
        const url = new URL(src, location.href);
        if (url.origin !== origin || !url.pathname.startsWith('/media/')) found.push(`${tag} loading ${src}`);
      }
    }
    // Attachments (the media feature's players and chips): nothing active, nothing from another origin.
    for (const el of log.querySelectorAll('.message-media *')) {
      const tag = el.tagName.toLowerCase();
      if (['script', 'iframe', 'object', 'embed', 'form', 'style', 'link', 'meta', 'base', 'math'].includes(tag))
        found.push(`a <${tag}> in media`);
      for (const attr of ['src', 'href', 'poster']) {
        const value = el.getAttribute(attr);
        if (value === null || value === '') continue;
        const url = new URL(value, location.href);
        const sameOrigin = url.origin === origin || (url.protocol === 'blob:' && value.startsWith(`blob:${origin}/`));
        if (!sameOrigin) found.push(`${tag} ${attr} ${value}`);
      }
    }
    return found;
  });
  expect(problems).toEqual([]);
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
    await painted(page);
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

test('hostile messages, reasoning and attachment names from history render inert', async ({ page, iris }) => {
  // Two messages per vector of the whole corpus, walked screen by screen with every part opened.
  test.setTimeout(240_000);
  const watch = await watchForAttacks(page, iris.origin);
  const store = iris.server.gateway!.store;
  const now = Date.now() - V.length * 3 * 1000;
  V.forEach((vector, i) => {
    const user = store.conversations.append({
      lane: LANE,
      role: 'user',
      text: vector,
      media: [{ media_id: `m${i}`, kind: 'document', mime: 'text/html', size: 12, filename: vector }],
      ts: now + i * 3000,
    });
    store.conversations.append({
      lane: LANE,
      role: i % 5 === 0 ? 'cron' : 'assistant',
      text: `Vector ${i}:\n\n${vector}`,
      reasoning: `${vector}\n\nsecond line ${vector}`,
      model: vector,
      reply_to: user.message_id,
      tokens: 3,
      ts: now + i * 3000 + 1000,
    });
  });
  store.flush();

  await pairAndOpen(page, iris);
  await renderEverything(page);

  // Shown as text: the person can read what was sent.
  await expect(messages(page).getByText(V[0]!).first()).toBeAttached();
  await assertInertDom(page);
  await expectNoHarm(page, watch, 'the lane');
});

test('hostile live turns: tool names, previews, args, notes, output, commentary, streamed text and channel names', async ({
  page,
  iris,
}) => {
  test.setTimeout(300_000);
  const watch = await watchForAttacks(page, iris.origin);
  const speak = await speakForGateway(page, null);
  await pairAndOpen(page, iris);

  // The channel's name, renamed by the gateway.
  speak({ type: 'channel.renamed', payload: { chat_id: LANE, name: HOSTILE_NAME, kind: 'default', is_default: true } });
  await expect(page.getByRole('heading', { name: HOSTILE_NAME, level: 2 })).toBeAttached();

  // One turn with a tool and a commentary beat per vector, then a streamed reply made of them all.
  const inLane = { chat_id: LANE };
  speak({ type: 'agent.busy', ...inLane, payload: { reason: 'tool' } });
  V.forEach((vector, index) => {
    speak({
      type: 'tool.start',
      ...inLane,
      payload: { index, name: `tool_${index}${vector}`, preview: vector, args: { [vector]: vector } },
    });
    speak({ type: 'tool.progress', ...inLane, payload: { index, name: `tool_${index}`, note: vector } });
    speak({
      type: 'tool.end',
      ...inLane,
      payload: { index, name: `tool_${index}`, ok: index % 2 === 0, duration: 0.5, output_preview: vector },
    });
    speak({ type: 'commentary', ...inLane, payload: { message_id: `beat-${index}`, text: vector } });
  });
  speak({ type: 'message.start', ...inLane, payload: { message_id: 'hostile-reply', role: 'assistant' } });
  let text = '';
  for (const vector of V) {
    text += `${vector}\n\n`;
    speak({ type: 'message.update', ...inLane, payload: { message_id: 'hostile-reply', text } });
  }
  speak({
    type: 'message.stop',
    ...inLane,
    payload: { message_id: 'hostile-reply', final_text: text, reasoning: text, model: at(0), tokens: 9 },
  });
  speak({
    type: 'media.offer',
    ...inLane,
    payload: {
      media_id: 'hostile-media',
      kind: 'image',
      mime: 'image/png',
      size: 10,
      filename: at(2),
      message_id: 'hostile-reply',
    },
  });
  speak({ type: 'agent.idle', ...inLane, payload: {} });

  const reply = messages(page)
    .getByRole('article', { name: /^(?:Iris demo agent|Hermes), / })
    .last();
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await expect(
    reply.getByRole('button', {
      name: new RegExp(`^Used ${V.length} tools · ${Math.floor(V.length / 2)} failed`),
    }),
  ).toBeVisible();
  // Opened (renderEverything opens every collapsed part), the turn's line shows every card.
  await renderEverything(page);
  await expect(reply.getByRole('group', { name: /^Tool tool_/ })).toHaveCount(V.length);
  await expect(reply.getByRole('group', { name: /^Tool tool_0/ })).toContainText(V[0]!);
  await assertInertDom(page);

  // What a person types goes through the composer, the echo and the demo agent's tool card and reply;
  // what another device sends arrives the same way.
  const store = iris.server.gateway!.store;
  const replies = () => store.messages(LANE).filter((m) => m.role === 'assistant').length;
  const before = replies();
  for (const [i, vector] of V.slice(0, 4).entries()) {
    await page.getByRole('textbox', { name: 'Message' }).fill(vector);
    await page.getByRole('button', { name: 'Send' }).click();
    // One at a time: while the agent works, the composer would steer instead of sending.
    await expect.poll(replies, { timeout: 20_000 }).toBe(before + i + 1);
    await expect(page.getByRole('status').filter({ hasText: /Hermes is/ })).toHaveCount(0);
  }
  const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token });
  for (const vector of V.slice(4, 16)) await other.chat(vector, inLane);
  await other.close();
  await renderEverything(page);
  await assertInertDom(page);
  await expectNoHarm(page, watch, 'the lane');
});

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
        hostile!.gateway.emit(Buffer.from(SVG_WITH_SCRIPT));
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
    await painted(page);
    if (i % 30 === 0) await watch.audit(`toasts ${i}`);
  }
  // Unsolicited gateway errors with hostile messages (shown in words somewhere, or ignored).
  for (let i = 0; i < V.length; i += 10)
    gateway.emit({
      type: 'error',
      payload: { code: ['internal', 'rate_limited', 'unsupported', at(i)][i % 4], message: bundle(i, 10) },
    });
  await barrier(page);
  await painted(page);
  await expectClean(watch, 'toasts');

  // --- The slash-command menu: hostile command names, descriptions and hints. ---
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/');
  // The menu with the gateway's (hostile) catalog in it.
  await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option').first()).toBeVisible();
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
  // The dialog and the refused load come asynchronously: wait until both have been seen.
  await expect
    .poll(async () => (await watch.problems()).join('\n'))
    .toMatch(/a alert dialog opened[^]*CSP violation: img-src|CSP violation: img-src[^]*a alert dialog opened/);
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
