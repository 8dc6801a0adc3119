// Issues 4 and 9, hostile input in the conversation: whatever the gateway puts in a message, its
// reasoning, commentary, a tool card, an attachment's filename or a channel name is shown inert. The test
// fails on any dialog, any script run (a sentinel), any request to another host, or any CSP violation.
import type { Page, WebSocketRoute } from '@playwright/test';
import { TestClient } from '../server/gateway/testclient';
import { expect, type IrisServer, LANE, pair, test } from './support';

/** Every vector calls window.__pwned(tag) (or alert) if it ever runs. */
export const VECTORS: readonly string[] = [
  '<script>window.__pwned("script")</script>',
  '<SCRIPT SRC=http://evil.example/x.js></SCRIPT>',
  '<img src=x onerror="window.__pwned(\'img-onerror\')">',
  '<img src="/media/x" onerror="window.__pwned(\'media-onerror\')">',
  '<svg onload="window.__pwned(\'svg-onload\')"></svg>',
  '<svg><script>window.__pwned("svg-script")</script></svg>',
  '<svg><a xlink:href="javascript:window.__pwned(\'svg-xlink\')"><text y="20">x</text></a></svg>',
  '<svg><animate onbegin="window.__pwned(\'animate\')" attributeName="x" dur="1s"></animate></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned(\'math\')">',
  '[md link](javascript:window.__pwned("md-link"))',
  '[md link caps](JaVaScRiPt:window.__pwned("md-caps"))',
  '[md link entity](&#106;avascript:window.__pwned("md-entity"))',
  '[md link tab](java\tscript:window.__pwned("md-tab"))',
  '[md link spaces](  javascript:window.__pwned("md-spaces"))',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox(1))',
  '<javascript:window.__pwned("autolink")>',
  '[title](https://example.com "x\\" onmouseover=\\"window.__pwned(\'title\')")',
  '![remote image](http://evil.example/pixel.png)',
  '![protocol-relative](//evil.example/pixel.png)',
  '![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)',
  '![lookalike](http://127.0.0.1.evil.example/x.png)',
  '![escape](/media/../../evil.example/x.png)',
  '<a href="javascript:window.__pwned(\'a-href\')">raw a</a>',
  '<a href="http://example.com" onclick="window.__pwned(\'a-onclick\')">raw a 2</a>',
  '<iframe src="javascript:window.__pwned(\'iframe\')"></iframe>',
  '<iframe srcdoc="<script>parent.__pwned(\'srcdoc\')</script>"></iframe>',
  '<object data="javascript:window.__pwned(\'object\')"></object>',
  '<embed src="javascript:window.__pwned(\'embed\')">',
  '<form action="javascript:window.__pwned(\'form\')"><button>go</button></form>',
  '<input autofocus onfocus="window.__pwned(\'autofocus\')">',
  '<details open ontoggle="window.__pwned(\'ontoggle\')"><summary>s</summary></details>',
  '<body onload="window.__pwned(\'body\')">',
  '<div style="background:url(http://evil.example/bg.png)">styled</div>',
  '<div style="width: expression(window.__pwned(\'expression\'))">css expression</div>',
  '<style>@import "http://evil.example/x.css"; body{background:url(http://evil.example/b.png)}</style>',
  '<link rel="stylesheet" href="http://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned(\'meta\')">',
  '<base href="http://evil.example/">',
  '<video src=x onerror="window.__pwned(\'video\')"></video>',
  '<audio src=x onerror="window.__pwned(\'audio\')"></audio>',
  '<img srcset="http://evil.example/s.png 1x" src="x">',
  '<table background="http://evil.example/t.png"><tr><td>table bg</td></tr></table>',
  '"><img src=x onerror="window.__pwned(\'break-out\')">',
  "'><script>window.__pwned('single')</script>",
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned(\'noscript\')>">',
  '<template><script>window.__pwned("template")</script></template>',
  '<x onpointerover="window.__pwned(\'custom\')">hover me</x>',
  '&lt;img src=x onerror=window.__pwned("entities")&gt;',
  '`<img src=x onerror=window.__pwned("codespan")>`',
  '```html\n<script>window.__pwned("codeblock")</script>\n<img src=x onerror=window.__pwned("codeblock-img")>\n```',
  '```"><img src=x onerror=window.__pwned("lang")>\ncode\n```',
  '<a href="data:text/html,<script>alert(1)</script>">data a</a>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="&#97;lert(1)">',
  '<scr<script>ipt>window.__pwned("nested")</scr</script>ipt>',
  '<<script>script>window.__pwned("double")<</script>/script>',
  '<svg/onload=window.__pwned("slash")>',
  '<img/src/onerror=window.__pwned("slash-img")>',
  '<div onmouseover="window.__pwned(\'div\')">| a | b |\n|---|---|\n| <img src=x onerror=window.__pwned("cell")> | c |</div>',
];

const HOSTILE_NAME =
  '<img src=x onerror="window.__pwned(\'channel\')">General<script>window.__pwned("channel-script")</script>';

interface Watch {
  pwned: string[];
  dialogs: string[];
  foreign: string[];
  csp: () => Promise<string[]>;
}

/** Installs the sentinel, and records dialogs, requests to other hosts and CSP violations. */
async function watchForHarm(page: Page, iris: IrisServer): Promise<Watch> {
  const watch = { pwned: [] as string[], dialogs: [] as string[], foreign: [] as string[] };
  await page.exposeFunction('__pwned', (tag: unknown) => void watch.pwned.push(String(tag)));
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const own = new URL(iris.baseURL).host;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.host !== own) watch.foreign.push(request.url());
  });
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = violations;
    document.addEventListener('securitypolicyviolation', (e) =>
      violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return { ...watch, csp: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp) };
}

/** Lets the test speak as the gateway: frames sent to the app over its live socket. */
async function gatewayVoice(page: Page): Promise<(frame: Record<string, unknown>) => void> {
  let current: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    ws.connectToServer();
    current = ws;
  });
  return (frame) => {
    if (!current) throw new Error('the app has no socket');
    current.send(JSON.stringify({ v: 1, ...frame }));
  };
}

function messages(page: Page) {
  return page.getByRole('log', { name: 'Messages' });
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
    await page.waitForTimeout(40);
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

async function assertNoHarm(page: Page, watch: Watch): Promise<void> {
  // Give anything queued (an onerror after a failed load, a timer) a moment to fire.
  await page.waitForTimeout(500);
  expect(watch.pwned).toEqual([]);
  expect(watch.dialogs).toEqual([]);
  expect(watch.foreign).toEqual([]);
  expect(await watch.csp()).toEqual([]);
}

test('hostile messages, reasoning and attachment names from history render inert', async ({ page, iris }) => {
  const watch = await watchForHarm(page, iris);
  const store = iris.server.gateway!.store;
  const now = Date.now() - VECTORS.length * 3 * 1000;
  VECTORS.forEach((vector, i) => {
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

  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(messages(page)).toBeVisible();
  await renderEverything(page);

  // Shown as text: the person can read what was sent.
  await expect(messages(page).getByText('<script>window.__pwned("script")</script>').first()).toBeAttached();
  await assertInertDom(page);
  await assertNoHarm(page, watch);
});

test('hostile live turns: tool names, previews, args, notes, output, commentary, streamed text and channel names', async ({
  page,
  iris,
}) => {
  test.setTimeout(150_000);
  const watch = await watchForHarm(page, iris);
  const speak = await gatewayVoice(page);
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/c/${encodeURIComponent(LANE)}`);
  await expect(messages(page)).toBeVisible();

  // The channel's name, renamed by the gateway.
  speak({ type: 'channel.renamed', payload: { chat_id: LANE, name: HOSTILE_NAME, kind: 'default', is_default: true } });
  await expect(page.getByRole('heading', { name: HOSTILE_NAME, level: 2 })).toBeAttached();

  // One turn with a tool and a commentary beat per vector, then a streamed reply made of them all.
  const at = { chat_id: LANE };
  speak({ type: 'agent.busy', ...at, payload: { reason: 'tool' } });
  VECTORS.forEach((vector, index) => {
    speak({
      type: 'tool.start',
      ...at,
      payload: { index, name: `tool_${index}${vector}`, preview: vector, args: { [vector]: vector } },
    });
    speak({ type: 'tool.progress', ...at, payload: { index, name: `tool_${index}`, note: vector } });
    speak({
      type: 'tool.end',
      ...at,
      payload: { index, name: `tool_${index}`, ok: index % 2 === 0, duration: 0.5, output_preview: vector },
    });
    speak({ type: 'commentary', ...at, payload: { message_id: `beat-${index}`, text: vector } });
  });
  speak({ type: 'message.start', ...at, payload: { message_id: 'hostile-reply', role: 'assistant' } });
  let text = '';
  for (const vector of VECTORS) {
    text += `${vector}\n\n`;
    speak({ type: 'message.update', ...at, payload: { message_id: 'hostile-reply', text } });
  }
  speak({
    type: 'message.stop',
    ...at,
    payload: { message_id: 'hostile-reply', final_text: text, reasoning: text, model: VECTORS[0], tokens: 9 },
  });
  speak({
    type: 'media.offer',
    ...at,
    payload: {
      media_id: 'hostile-media',
      kind: 'image',
      mime: 'image/png',
      size: 10,
      filename: VECTORS[2],
      message_id: 'hostile-reply',
    },
  });
  speak({ type: 'agent.idle', ...at, payload: {} });

  const reply = messages(page)
    .getByRole('article', { name: /^Hermes, / })
    .last();
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await expect(
    reply.getByRole('button', {
      name: new RegExp(`^Used ${VECTORS.length} tools · ${Math.floor(VECTORS.length / 2)} failed`),
    }),
  ).toBeVisible();
  // Opened (renderEverything opens every collapsed part), the turn's line shows every card.
  await renderEverything(page);
  await expect(reply.getByRole('group', { name: /^Tool tool_/ })).toHaveCount(VECTORS.length);
  await expect(reply.getByRole('group', { name: /^Tool tool_0/ })).toContainText(
    '<script>window.__pwned("script")</script>',
  );
  await assertInertDom(page);

  // What a person types goes through the composer, the echo and the demo agent's tool card and reply;
  // what another device sends arrives the same way.
  const store = iris.server.gateway!.store;
  const replies = () => store.messages(LANE).filter((m) => m.role === 'assistant').length;
  const before = replies();
  for (const [i, vector] of VECTORS.slice(0, 4).entries()) {
    await page.getByRole('textbox', { name: 'Message' }).fill(vector);
    await page.getByRole('button', { name: 'Send' }).click();
    // One at a time: while the agent works, the composer would steer instead of sending.
    await expect.poll(replies, { timeout: 20_000 }).toBe(before + i + 1);
    await expect(page.getByRole('status').filter({ hasText: /Hermes is/ })).toHaveCount(0);
  }
  const other = await TestClient.paired(iris.gatewayUrl, { token: iris.token });
  for (const vector of VECTORS.slice(4, 16)) await other.chat(vector, at);
  await other.close();
  await renderEverything(page);
  await assertInertDom(page);
  await assertNoHarm(page, watch);
});
