// Issue 12: Iris Web against a real, stock Hermes. The serving process runs as `npm start -- --hermes
// URL` does; behind it, hermes-agent from PyPI (its API server, agent loop, terminal tool, approval
// rules) with the scripted model. What a person sees in Chromium is checked, and what Hermes did.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { HermesAgent } from '../../server/gateway/hermes/agent';
import { TestClient } from '../../server/gateway/testclient';
import { startServer } from '../../server/http/server';
import { createTestSubscriber, decryptWebPush } from '../../server/push/testing/decrypt';
import { startFakePushService } from '../../server/push/testing/fake-push-service';
import { expectLanded, openLane as openLaneAt, pairingLink, sendMessage as send } from '../support';
import { ensureHermes, HERMES_VERSION, startHermes, type RunningHermes } from './hermes';
import { SCRIPTED_MODEL_ID, startScriptedModel, type ScriptedModel } from './model';
import { clickNotification, fakePushManager, pushDeliverer, workerNotifications } from '../support/push';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = '/tmp/h12-hermes';
const GENERAL = 'web:default';
const DEMO_LANE = 'web:demo';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let model: ScriptedModel;
let hermes: RunningHermes;
let scratch: string;

interface Iris {
  origin: string;
  dataDir: string;
  link: string;
  child: ChildProcess;
  stdout: () => string;
  /** SIGTERM by default; SIGKILL for a crash. */
  close(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `npm start -- --hermes URL`, the key in HERMES_API_KEY, on a free port with its own data dir; `again`
 * starts it anew on the port and data dir of an earlier one (our server restarted).
 */
async function startIris(again?: Iris): Promise<Iris> {
  const dataDir = again?.dataDir ?? mkdtempSync(join(scratch, 'iris-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/main.ts',
      '--port',
      again ? new URL(again.origin).port : '0',
      '--host',
      '127.0.0.1',
      '--dist-dir',
      'dist',
      '--data-dir',
      dataDir,
      '--hermes',
      hermes.url,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HERMES_API_KEY: hermes.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  await expect
    .poll(() => (child.exitCode === null ? /^Agent: .*$/m.test(stdout) : `exited: ${stderr}`), { timeout: 60_000 })
    .toBe(true);
  // The printed link names localhost; the server listens on 127.0.0.1 only.
  const link = /^Pairing link: (\S+)$/m.exec(stdout)![1]!.replaceAll('localhost', '127.0.0.1');
  return {
    origin: new URL(link).origin,
    dataDir,
    link,
    child,
    stdout: () => stdout,
    async close(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await exited;
      }
      expect(stdout + stderr).not.toContain(hermes.key);
    },
  };
}

async function openLane(page: Page, iris: Iris, lane = GENERAL): Promise<void> {
  await page.goto(iris.link);
  // Pairing lands in the default channel; then the lane asked for.
  await expectLanded(page);
  await openLaneAt(page, iris, lane);
}

/** Hermes's replies in the lane (the app labels the agent's bubbles "Hermes, …"). */
function replies(page: Page, text: string | RegExp): Locator {
  return page
    .getByRole('log', { name: 'Messages' })
    .getByRole('article', { name: /^Hermes, / })
    .filter({ hasText: text });
}

async function newDevice(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** One run through Hermes's own API, to its end: what another client of this Hermes would do. */
async function runInHermes(input: string, sessionId: string, timeout = 90_000): Promise<void> {
  const auth = { Authorization: `Bearer ${hermes.key}`, 'Content-Type': 'application/json' };
  const { run_id } = (await (
    await fetch(`${hermes.url}/v1/runs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ input, session_id: sessionId }),
    })
  ).json()) as { run_id: string };
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${hermes.url}/v1/runs/${run_id}`, { headers: auth })).json()) as { status: string })
          .status,
      { timeout },
    )
    .toBe('completed');
}

/** The person's own bubbles in the lane. */
function mine(page: Page, text: string | RegExp): Locator {
  return page
    .getByRole('log', { name: 'Messages' })
    .getByRole('article', { name: /^You, / })
    .filter({ hasText: text });
}

test.beforeAll(async () => {
  // A fresh machine installs Hermes first (about a minute), then Hermes loads its tools on its first run.
  test.setTimeout(360_000);
  const { skip } = ensureHermes();
  // In CI a missing Hermes is a failure, not a skip: .ci/run installs it, and a skipped suite proves nothing.
  if (skip !== undefined && process.env.CI) throw new Error(`the Hermes tests must run in CI: ${skip}`);
  test.skip(skip !== undefined, skip);
  scratch = mkdtempSync(join(tmpdir(), 'iris-hermes-e2e-'));
  mkdirSync(SHOTS, { recursive: true });
  model = await startScriptedModel();
  hermes = await startHermes({ modelBaseUrl: model.baseUrl });
  // Hermes's first run in a process loads its tools (~10 s); do it once here, not in a test's budget.
  await runInHermes('warm up', 'warm-up');
});

test.afterAll(async () => {
  const attempts = hermes?.trap.attempts ?? [];
  await hermes?.close();
  await model?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  // Hermes made no call outside this machine (every one would have gone through the trap proxy).
  expect(attempts).toEqual([]);
});

test('a streamed reply from Hermes, with its reasoning and a tool card, also on a device paired after it; Settings names Hermes and its model', async ({
  page,
  browser,
}) => {
  const iris = await startIris();
  try {
    expect(iris.stdout()).toContain(`Agent: Hermes ${HERMES_VERSION} at ${hermes.url}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await page.evaluate(() => {
      const w = window as unknown as { __texts: string[] };
      w.__texts = [];
      new MutationObserver(() => {
        const streaming = document.querySelector('article[aria-busy="true"][aria-label^="Hermes"]');
        const text = streaming?.querySelector(':scope > .md')?.textContent ?? '';
        if (text && w.__texts[w.__texts.length - 1] !== text) w.__texts.push(text);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await send(page, 'Please run a command [echo]');
    const reply = replies(page, 'The command printed: iris-tool-ok');
    await expect(reply).toBeVisible({ timeout: 30_000 });
    await expect(reply).toHaveAttribute('aria-busy', 'false');
    // It streamed: the bubble showed growing text before the final one.
    const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    // The terminal tool really ran in Hermes: its card (behind the turn's one line), done, with the command as preview.
    await reply.getByRole('button', { name: /^Used 1 tool/ }).click();
    const card = reply.getByRole('group', { name: 'Tool terminal' });
    await expect(card).toContainText('echo iris-tool-ok');
    await expect(card).toContainText('Done');
    // The model's reasoning, as Hermes kept it, above the text.
    await reply.getByRole('button', { name: /^Thought/ }).click();
    await expect(reply.locator('.reasoning')).toContainText('I should run echo iris-tool-ok in the terminal.');
    await expect(reply.locator('.reasoning')).toContainText('The tool answered; I report what it said.');
    await reply.getByRole('button', { name: 'Details' }).click();
    await expect(reply.locator('.msg-meta')).toContainText(SCRIPTED_MODEL_ID);

    // A device paired after the reply reads it from history: the same tool line and thought time.
    const later = await newDevice(browser);
    try {
      await openLane(later, iris);
      const kept = replies(later, 'The command printed: iris-tool-ok');
      await expect(kept.getByRole('button', { name: /^Used 1 tool/ })).toBeVisible({ timeout: 30_000 });
      await expect(kept.getByRole('button', { name: /^Thought for / })).toBeVisible();
    } finally {
      await later.context().close();
    }

    await page.goto(`${iris.origin}/#/settings`);
    const agentRow = page.locator('.settings-facts div').filter({ has: page.getByText('Agent', { exact: true }) });
    await expect(agentRow).toContainText(`Hermes ${HERMES_VERSION} · model ${SCRIPTED_MODEL_ID}`);
    for (const [name, viewport] of [
      ['phone', { width: 412, height: 915 }],
      ['desktop', { width: 1440, height: 900 }],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await agentRow.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/settings-hermes-${name}-${scheme}.png` });
      }
    }
  } finally {
    await iris.close();
  }
});

test('an approval Hermes asks for: "Once" runs the command (its output in the reply), "Deny" leaves it unrun', async ({
  page,
}) => {
  const iris = await startIris();
  const victims = mkdtempSync(join(scratch, 'victims-'));
  const once = join(victims, 'once');
  const denied = join(victims, 'denied');
  mkdirSync(once);
  mkdirSync(denied);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await send(page, `Clean up [approve ${once}]`);
    let dialog = page.getByRole('dialog', { name: 'Approve this command?' });
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await expect(dialog.locator('pre code')).toHaveText(`rm -rf ${once} && echo removed-ok`);
    await expect(dialog).toContainText('Hermes flags this command: delete in root path.');
    // While Hermes waits, the reply already shows, live, the model's reasoning for that step.
    const streaming = page.locator('article[aria-busy="true"][aria-label^="Hermes"]');
    await expect(streaming.getByRole('button', { name: 'Thinking…' })).toBeAttached();
    await expect(streaming.locator('.reasoning')).toContainText(
      `I should run rm -rf ${once} && echo removed-ok in the terminal.`,
    );
    await dialog.getByRole('button', { name: 'Once' }).click();
    await expect(dialog).toBeHidden();
    await expect(replies(page, 'The command printed: removed-ok')).toBeVisible({ timeout: 30_000 });
    expect(existsSync(once)).toBe(false);

    await send(page, `Clean up [approve ${denied}]`);
    dialog = page.getByRole('dialog', { name: 'Approve this command?' });
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(replies(page, /The command was not run: BLOCKED/)).toBeVisible({ timeout: 30_000 });
    expect(existsSync(denied)).toBe(true);
  } finally {
    await iris.close();
  }
});

test('Stop mid-run: Hermes cancels the run and the reply keeps only what came before, Stopped on every device', async ({
  page,
  browser,
}) => {
  const iris = await startIris();
  const other = await newDevice(browser);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await openLane(other, iris);
    await send(page, 'Tell me a long story [slow]');
    const reply = replies(page, 'Slow line 3.');
    await expect(reply).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 15_000 });
    const text = (await reply.locator(':scope > .md').textContent()) ?? '';
    expect(text).not.toContain('Slow line 60.');
    // Hermes really stopped: it hung up on the model mid-reply instead of reading all 60 lines.
    const slow = model.requests.filter(
      (r) => r.stream && JSON.stringify(r.messages.at(-1)).includes('Tell me a long story [slow]'),
    );
    expect(slow).toHaveLength(1);
    expect(slow[0].piecesSent).toBeLessThan(60);
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    // The other device did not press Stop, and says so too (the gateway's `stopped`).
    for (const p of [page, other])
      await expect(replies(p, 'Slow line 3.').getByText('Stopped', { exact: true })).toBeVisible({ timeout: 15_000 });
  } finally {
    await other.context().close();
    await iris.close();
  }
});

test('Hermes has no steer: text typed during a reply is offered as Send, not Steer, and is answered after it', async ({
  page,
}) => {
  const iris = await startIris();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await send(page, 'One more long story [slow]');
    const first = replies(page, 'Slow line 3.');
    await expect(first).toBeVisible({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Message' }).fill('And then?');
    // The reply is still streaming, and the button offers to send the text, not to steer with it.
    await expect(first).toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('button', { name: 'Steer' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(
      page.getByRole('log', { name: 'Messages' }).getByRole('article').filter({ hasText: 'And then?' }),
    ).toHaveCount(1);
    // Queued behind the running reply: that one ends whole, then the message gets its own reply.
    await expect(replies(page, 'Slow line 60.')).toHaveAttribute('aria-busy', 'false', { timeout: 45_000 });
    await expect(replies(page, 'You said: «And then?»')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);
  } finally {
    await iris.close();
  }
});

test('our server crashes mid-run and starts again: the run, still going in Hermes, ends whole in the same bubble', async ({
  page,
}) => {
  let iris = await startIris();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await send(page, 'A story across a crash [slow]');
    await expect(replies(page, 'Slow line 3.')).toBeVisible({ timeout: 30_000 });
    await iris.close('SIGKILL');
    iris = await startIris(iris);
    // The page reconnects by itself; the gateway followed the run by GET /v1/runs/{id} to its end.
    const reply = replies(page, 'Slow line 60.');
    await expect(reply).toBeVisible({ timeout: 60_000 });
    await expect(reply).toHaveAttribute('aria-busy', 'false');
    await expect(replies(page, 'Slow line 1.')).toHaveCount(1);
    await page.reload();
    await expect(replies(page, 'Slow line 60.')).toHaveCount(1, { timeout: 20_000 });
    // Hermes ran it once: our restart did not start a second run.
    const runs = model.requests.filter(
      (r) => r.stream && JSON.stringify(r.messages.at(-1)).includes('A story across a crash [slow]'),
    );
    expect(runs).toHaveLength(1);
  } finally {
    await iris.close();
  }
});

test('a reload mid-run and a second device each show the reply exactly once', async ({ page, browser }) => {
  const iris = await startIris();
  const other = await newDevice(browser);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await openLane(other, iris);
    await send(page, 'Another long story [slow]');
    await expect(replies(page, 'Slow line 3.')).toBeVisible({ timeout: 30_000 });
    await page.reload();
    for (const p of [page, other]) {
      const reply = replies(p, 'Slow line 60.');
      await expect(reply).toBeVisible({ timeout: 45_000 });
      await expect(reply).toHaveAttribute('aria-busy', 'false');
      await expect(replies(p, 'Slow line 1.')).toHaveCount(1);
    }
  } finally {
    await other.context().close();
    await iris.close();
  }
});

test('files to Hermes: a text file is read (and kept in the conversation), a PDF is named back, not sent', async ({
  page,
}) => {
  const iris = await startIris();
  try {
    await page.setViewportSize({ width: 412, height: 915 });
    await openLane(page, iris, GENERAL);
    await page.locator('input[type="file"][multiple]').setInputFiles([
      { name: 'build.log', mimeType: 'text/plain', buffer: Buffer.from('step 1 ok\nstep 2 FAILED: disk full\n') },
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%\xe2\xe3\n') },
    ]);
    await expect(page.getByRole('list', { name: 'Attachments' })).toContainText('build.log');
    await send(page, 'What failed?');
    await expect(replies(page, 'Not sent to Hermes: report.pdf (neither a picture nor a text file).')).toBeVisible({
      timeout: 30_000,
    });
    // The model's reply is made from the file's words, which only Hermes passed it.
    const read = replies(page, 'I read build.log: 2 lines, the last «step 2 FAILED: disk full».');
    await expect(read).toBeVisible({ timeout: 30_000 });
    await expect(read).toHaveAttribute('aria-busy', 'false');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/files-phone-${scheme}.png` });
    }
    // The next turn's conversation still holds the file's words.
    await send(page, 'And the first step?');
    await expect(replies(page, 'Earlier you said: «[Content of build.log]: step 1 ok step 2')).toBeVisible({
      timeout: 30_000,
    });
    const lastRequest = model.requests[model.requests.length - 1]!;
    expect(JSON.stringify(lastRequest.messages)).not.toContain('%PDF');
  } finally {
    await iris.close();
  }
});

test('two channels are two Hermes conversations: the second does not see the first’s words', async ({ page }) => {
  const iris = await startIris();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris, GENERAL);
    await send(page, 'My secret word is PLUM');
    await expect(replies(page, 'This is the start of our conversation.')).toBeVisible({ timeout: 30_000 });
    await send(page, 'What was my word?');
    await expect(replies(page, 'Earlier you said: «My secret word is PLUM»')).toBeVisible({ timeout: 30_000 });

    await page.goto(`${iris.origin}/#/c/${encodeURIComponent(DEMO_LANE)}`);
    await send(page, 'What was my word?');
    const answer = replies(page, 'You said: «What was my word?»');
    await expect(answer).toBeVisible({ timeout: 30_000 });
    await expect(answer).toContainText('This is the start of our conversation.');
    await expect(answer).not.toContainText('PLUM');
    const sessions = (await (
      await fetch(`${hermes.url}/api/sessions?limit=50`, { headers: { Authorization: `Bearer ${hermes.key}` } })
    ).json()) as { data: Array<{ id: string }> };
    const ours = sessions.data.filter((s) => s.id.startsWith('iris-web-'));
    expect(new Set(ours.map((s) => s.id.replace(/-[0-9a-f]{8}$/, '')))).toEqual(
      new Set(['iris-web-default', 'iris-web-demo']),
    );
  } finally {
    await iris.close();
  }
});

test('Hermes stopped: a banner says why and a message is answered in words; Hermes back: the banner goes, replies resume', async ({
  page,
}) => {
  // A restarted Hermes loads its tools again on its first run: tens of seconds on a busy machine.
  test.setTimeout(300_000);
  const iris = await startIris();
  try {
    await page.setViewportSize({ width: 412, height: 915 });
    await openLane(page, iris);
    await hermes.stop();
    const banner = page.getByRole('status').filter({ hasText: 'The agent cannot answer right now' });
    await expect(banner).toContainText(`Hermes at ${hermes.url} is not reachable`, { timeout: 20_000 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/banner-hermes-down-phone-${scheme}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/banner-hermes-down-desktop-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: `${SHOTS}/banner-hermes-down-desktop-light.png` });
    await send(page, 'Are you there?');
    const answer = replies(page, /is not reachable.*Your message is kept here/);
    await expect(answer).toBeVisible({ timeout: 20_000 });
    await expect(answer).toHaveAttribute('aria-busy', 'false');

    await hermes.start();
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await send(page, 'Back again?');
    await expect(replies(page, 'You said: «Back again?»')).toBeVisible({ timeout: 180_000 });
  } finally {
    await iris.close();
  }
});

test('someone who used Hermes before: /attach lists their session, and attaching a channel shows its earlier conversation', async ({
  page,
}) => {
  // A conversation held with this Hermes outside Iris Web (its CLI or another app would do the same).
  await runInHermes('My favourite fruit is MANGO', 'from-the-cli');
  await runInHermes('Please run a command [echo]', 'from-the-cli');
  const iris = await startIris();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLane(page, iris);
    await send(page, '/attach');
    await expect(replies(page, "Hermes's recent sessions")).toContainText('from-the-cli', { timeout: 20_000 });
    await send(page, '/attach from-the-cli');
    await expect(replies(page, 'This channel now continues Hermes session from-the-cli')).toBeVisible({
      timeout: 20_000,
    });
    // The earlier words and Hermes's reply, above the /attach, as the channel's own messages.
    // (A regex: a string would also match the later "Earlier you said: …", case-insensitively.)
    const earlier = mine(page, 'My favourite fruit is MANGO');
    const reply = replies(page, /You said: «My favourite fruit is MANGO»/);
    await expect(earlier).toHaveCount(1);
    await expect(reply).toHaveCount(1);
    const top = async (l: Locator) => (await l.boundingBox())!.y;
    expect(await top(earlier)).toBeLessThan(await top(reply));
    expect(await top(reply)).toBeLessThan(await top(mine(page, /^\/attach from-the-cli/)));
    // The reply keeps the reasoning Hermes kept for it.
    await reply.getByRole('button', { name: /^Thought/ }).click();
    await expect(reply.locator('.reasoning')).toContainText('The person wrote 27 characters; I answer briefly.');
    // And the reply that ran a tool shows it, as it did live: the card, the command, how it ended.
    const ran = replies(page, 'The command printed: iris-tool-ok');
    await expect(ran).toHaveCount(1);
    await ran.getByRole('button', { name: /^Used 1 tool/ }).click();
    const card = ran.getByRole('group', { name: 'Tool terminal' });
    await expect(card).toContainText('echo iris-tool-ok');
    await expect(card).toContainText('Done');
    await expect(reply.getByRole('button', { name: /^Used/ })).toHaveCount(0);
    // Hermes's next reply in this channel sees that conversation.
    await send(page, 'What was my fruit?');
    await expect(replies(page, /Earlier you said: «My favourite fruit is MANGO»/)).toBeVisible({ timeout: 30_000 });
    // Once: attaching again and a reload show each earlier message once.
    await send(page, '/attach from-the-cli');
    await expect(replies(page, 'This channel already continues Hermes session from-the-cli')).toBeVisible({
      timeout: 20_000,
    });
    await page.reload();
    await expect(mine(page, 'My favourite fruit is MANGO')).toHaveCount(1, { timeout: 20_000 });
    await expect(replies(page, /You said: «My favourite fruit is MANGO»/)).toHaveCount(1);
  } finally {
    await iris.close();
  }
});

test('an approval Hermes asks for while no app is open: the push arrives, and its "Approve once" runs the command', async ({
  browser,
}) => {
  const pushService = await startFakePushService();
  const subscriber = createTestSubscriber(pushService.endpoint());
  const dataDir = mkdtempSync(join(scratch, 'iris-push-'));
  const token = `hermes-push-${randomBytes(8).toString('hex')}`;
  // The serving process in this test's own process, so it can use the test's push service (http://).
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    distDir: join(ROOT, 'dist'),
    dataDir,
    token,
    gateway: { agent: new HermesAgent({ url: hermes.url, key: hermes.key }) },
    push: { testPushOrigins: [pushService.origin], retries: 0 },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const victim = mkdtempSync(join(scratch, 'victim-'));
  const other = await TestClient.paired(`ws://127.0.0.1:${server.port}/ws`, { token, device_id: 'other-device' });
  try {
    await context.grantPermissions(['notifications'], { origin });
    await fakePushManager(context, subscriber);
    const page = await context.newPage();
    await page.goto(pairingLink(origin, token));
    await expectLanded(page);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('switch', { name: 'Notifications' }).click();
    await expect(page.getByTestId('notification-status')).toHaveText('On');
    // From a page that is not the app, so pushes reach the worker with every app window closed.
    const { deliver } = await pushDeliverer(await context.newPage(), origin);
    const [worker] = context.serviceWorkers();
    expect(worker).toBeDefined();

    // The app closes; another device asks for something Hermes's rules send to approval.
    await page.close();
    await expect.poll(() => server.gateway!.connectionCount()).toBe(1);
    await other.request('message.send', { text: `Clean up [approve ${victim}]`, client_id: 'c-push-approve' }, {});
    const [push] = await pushService.waitForPushes(1, 60_000);
    const approval = JSON.parse(decryptWebPush(push!.body, subscriber).toString('utf8')) as Record<string, unknown>;
    expect(approval).toMatchObject({ kind: 'approval', lane: GENERAL });
    expect(approval.picker_id).toEqual(expect.any(String));
    const tag = `picker:${String(approval.picker_id)}`;
    await deliver(approval);
    await expect
      .poll(() => workerNotifications(worker!, tag))
      .toEqual([['Approval needed', `Run rm -rf ${victim} && echo removed-ok?`, ['once', 'deny']]]);

    // "Approve once" on the notification: the worker answers over its own connection; Hermes runs it.
    await clickNotification(worker!, tag, 'once');
    const texts = () => server.gateway!.store.messages(GENERAL).map((m) => m.text);
    await expect.poll(texts, { timeout: 30_000 }).toContain('The command printed: removed-ok');
    expect(existsSync(victim)).toBe(false);
    await expect
      .poll(async () => (await workerNotifications(worker!, tag)).map(([title, body]) => [title, body]))
      .toEqual([['Approved once', `Run rm -rf ${victim} && echo removed-ok?`]]);
    // The app opened later shows the reply with the command's output.
    const reopened = await context.newPage();
    await reopened.goto(`${origin}/#/c/${encodeURIComponent(GENERAL)}`);
    await expect(replies(reopened, 'The command printed: removed-ok')).toBeVisible({ timeout: 20_000 });
  } finally {
    await other.close();
    await context.close();
    await server.close();
    await pushService.close();
  }
});
