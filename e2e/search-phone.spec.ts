// Issue 16.4, search on a phone: results as wide as the screen (a long channel › thread name truncates,
// the date stays whole), snippets in the words the conversation shows (no Markdown, no half words), and
// an opened result in view above the composer, highlighted for a moment.
import type { Page } from '@playwright/test';
import { expect, type IrisServer, pair, test } from './support';

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

const results = (page: Page) => page.getByRole('list', { name: 'Results' });

/** Stores `texts` in General as the gateway's history, a minute apart, users and agent in turn; their ids. */
function seedGeneral(iris: IrisServer, texts: string[], start: number): string[] {
  const store = iris.server.gateway!.store.conversations;
  return texts.map(
    (text, i) =>
      store.append({ lane: 'web:default', role: i % 2 ? 'assistant' : 'user', text, ts: start + i * 60_000 })
        .message_id,
  );
}

test('results fit a 360 px screen: the long lane name truncates, the date is whole, snippets are plain words', async ({
  page,
  iris,
}) => {
  const gateway = iris.server.gateway!.store;
  const channel = gateway.channels.create('Household paperwork and appointments for the whole family', 'channel');
  const thread = gateway.channels.create(
    'Renewing the car insurance before the end of the month',
    'thread',
    channel.chat_id,
  );
  gateway.channels.update(thread.chat_id, {});
  const filler = 'Some context first, so that the match sits well inside a long message. '.repeat(4);
  gateway.conversations.append({
    lane: thread.chat_id,
    role: 'assistant',
    text: `${filler}**Echo:** the _insurance_ renewal is due on Friday.\n\n\`\`\`text\ncall the broker\n\`\`\`\n\n${filler}`,
    ts: Date.now() - 3600_000,
  });
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?q=insurance`);
  const hit = results(page).getByRole('link').first();
  await expect(hit).toBeVisible();

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const card = await hit.boundingBox();
  expect(card!.x + card!.width).toBeLessThanOrEqual(360);
  const lane = hit.locator('.search-hit-lane');
  await expect(lane).toHaveText(/^Household paperwork.* › Renewing/);
  // The name is cut with an ellipsis; the date beside it is shown whole, inside the card.
  expect(
    await lane.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis'),
  ).toBe(true);
  const date = hit.locator('time');
  expect(await date.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const dateBox = await date.boundingBox();
  expect(dateBox!.x + dateBox!.width).toBeLessThanOrEqual(card!.x + card!.width);

  const snippet = (await hit.locator('.search-hit-snippet').innerText()).trim();
  expect(snippet).toContain('Echo: the insurance renewal is due on Friday.');
  expect(snippet).not.toMatch(/\*\*|`|_insurance_|\btext\b/);
  // Cut between words: every word shown is a whole word of the message.
  const words = new Set(
    `${filler} Echo: the insurance renewal is due on Friday. call the broker ${filler}`.split(/\s+/),
  );
  for (const word of snippet.replace(/^…\s*|\s*…$/g, '').split(/\s+/))
    expect(words, `"${word}" in "${snippet}"`).toContain(word);
});

test('an opened result is centred in the conversation, above the composer, and briefly highlighted', async ({
  page,
  iris,
}) => {
  const texts = Array.from({ length: 80 }, (_, i) =>
    i === 40
      ? 'The **zeppelin** tickets are booked for the second week of June.'
      : `Message ${i}: ${'an ordinary line of conversation that fills the lane, '.repeat(1 + (i % 4))}`,
  );
  const target = seedGeneral(iris, texts, Date.now() - 3 * 3600_000)[40]!;
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?q=zeppelin`);
  await results(page).getByRole('link').first().click();

  const message = page.locator(`[data-message-id="${target}"]`);
  await expect(message).toBeVisible();
  await expect(message).toHaveClass(/is-target/);
  const composer = page.locator('form.composer');
  const scroller = page.getByRole('log', { name: 'Messages' });
  // Once the rows around it are measured, the message is wholly in view, between the top of the
  // conversation and the composer, near the middle.
  await expect
    .poll(async () => {
      const [m, c, s] = await Promise.all([message.boundingBox(), composer.boundingBox(), scroller.boundingBox()]);
      if (!m || !c || !s) return 'not laid out';
      if (m.y < s.y || m.y + m.height > c.y)
        return `message at ${Math.round(m.y)}…${Math.round(m.y + m.height)}, view ${Math.round(s.y)}…${Math.round(c.y)}`;
      const off = Math.abs(m.y + m.height / 2 - (s.y + s.height / 2));
      return off < s.height / 4 ? 'centred' : `off centre by ${Math.round(off)}px`;
    })
    .toBe('centred');
  // The highlight is brief: it goes again.
  await expect(message).not.toHaveClass(/is-target/, { timeout: 10_000 });
  // The result was a place to open at once: a reload opens the conversation at its newest message.
  await expect(page).toHaveURL(/#\/c\/web%3Adefault$/);
  await page.reload();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/^Message 79:/)).toBeInViewport();
  await expect(message).not.toBeInViewport();
});

test('an opened result shows the message whole, its actions only once tapped; a short chat has no "Jump to latest"', async ({
  page,
  iris,
}) => {
  // A chat that fits the screen.
  const [target] = seedGeneral(
    iris,
    ['Should I learn Rust or Go first?', 'Rust, if you have the time.', 'Thanks!'],
    Date.now() - 3600_000,
  );
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?q=rust`);
  await results(page)
    .getByRole('link', { name: /Should I learn/ })
    .click();
  const message = page.locator(`[data-message-id="${target}"]`);
  await expect(message).toHaveClass(/is-target/);
  await expect(message).toBeFocused();
  const actions = message.getByRole('button', { name: 'Reply' });
  await expect(actions).toBeHidden();
  // Nothing to scroll to: the newest message is on screen already.
  await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeHidden();
  // A tap on the message shows its actions, as anywhere else.
  await message.tap();
  await expect(actions).toBeVisible();
});

test('the search field: one focus ring, and a clear button drawn like the other icons', async ({ page, iris }) => {
  await pair(page, iris);
  await page.goto(`${iris.baseURL}/#/search?q=report`);
  const field = page.getByRole('searchbox', { name: 'Search messages' });
  await expect(field).toBeFocused();
  // One ring: the field's border becomes the focus colour; no outline drawn around it as a second ring.
  const ring = await field.evaluate((el) => {
    const style = getComputedStyle(el);
    return { outline: style.outlineStyle, border: style.borderTopColor, shadow: style.boxShadow };
  });
  expect(ring.outline).toBe('none');
  expect(ring.shadow.match(/rgb/g)).toHaveLength(1);
  expect(ring.shadow).toContain(ring.border);
  // The clear button is the app's line icon, as thin and as large as the top bar's search icon.
  const clear = page.getByRole('button', { name: 'Clear search' });
  await expect(clear).toBeVisible();
  const [clearIcon, barIcon] = await Promise.all(
    [
      clear,
      page
        .getByRole('link', { name: 'Search' })
        .or(page.getByRole('button', { name: 'Search' }))
        .first(),
    ].map((control) =>
      control.locator('svg').evaluate((svg) => ({
        stroke: svg.getAttribute('stroke-width'),
        size: Math.round(svg.getBoundingClientRect().width),
      })),
    ),
  );
  expect(clearIcon).toEqual(barIcon);
  const box = (await clear.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  await clear.click();
  await expect(field).toHaveValue('');
  await expect(field).toBeFocused();
  await expect(clear).toBeHidden();
  await expect(page.getByText('Type to search your messages.')).toBeVisible();
});
