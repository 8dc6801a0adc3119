// The fault scenarios of issue 9. Each drives the app like a person while the fault proxy and the
// gateway host misbehave at points chosen by the run's seeded PRNG. The harness then heals every fault
// and judges the result against the gateway's store.
import { openLane } from '../support';
import { nudgeOnline, readApp, setDiskFull, storedCursor, uploadBytes, type WireSync } from './app';
import type { Page } from '@playwright/test';
import { sleep, type Device, type Run } from './harness';
import type { Rng } from './rng';

export interface Scenario {
  name: string;
  /** Demo stream speed for this scenario (ms between steps). */
  streamDelayMs?: number;
  run(r: Run): Promise<void>;
}

type FaultKind = 'cut-to-app' | 'cut-to-gateway' | 'cut-now' | 'down' | 'delay' | 'restart';

/** One fault at a random point; returns when it has been injected (a restart: once the gateway is back). */
async function injectFault(r: Run, rng: Rng, kinds: readonly FaultKind[]): Promise<void> {
  const kind = rng.pick(kinds);
  switch (kind) {
    case 'cut-to-app':
    case 'cut-to-gateway': {
      const direction = kind === 'cut-to-app' ? 'toApp' : 'toGateway';
      const mid = await r.proxy.cutMidFrame({ direction, withinMs: rng.int(300, 1500) });
      r.note(`cut ${direction} ${mid ? 'inside a frame' : 'between frames'}`);
      return;
    }
    case 'cut-now':
      r.note(`cut ${r.proxy.cutAll()} link(s)`);
      return;
    case 'down': {
      const ms = rng.int(200, 2500);
      r.proxy.down(ms);
      r.note(`link down for ${ms} ms`);
      return;
    }
    case 'delay': {
      const ms = rng.pick([0, 0, 50, 150, 400, 900]);
      r.proxy.setDelay(ms);
      r.note(`latency ${ms} ms`);
      return;
    }
    case 'restart':
      await r.killGateway();
      await sleep(rng.int(100, 1500));
      await r.restartGateway();
      return;
  }
}

/** Injects faults until `stop.done`, at seeded intervals. */
async function flap(r: Run, rng: Rng, stop: { done: boolean }, kinds: readonly FaultKind[]): Promise<void> {
  while (!stop.done) {
    await sleep(rng.int(250, 1800));
    if (stop.done) return;
    await injectFault(r, rng, kinds);
  }
}

async function whileFlapping(r: Run, rng: Rng, kinds: readonly FaultKind[], body: () => Promise<void>): Promise<void> {
  const stop = { done: false };
  const flapper = flap(r, rng.fork('flapper'), stop, kinds);
  try {
    await body();
  } finally {
    stop.done = true;
    await flapper;
  }
}

async function waitUntilTrue(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return true;
    await sleep(50);
  }
  return false;
}

/** The page's first complete sync (its replay on the wire), or undefined if none finished in time. */
async function waitForSync(r: Run, page: Page, timeoutMs = 20_000) {
  let found: WireSync | undefined;
  await waitUntilTrue(
    async () => (found = (await r.wire(page)).syncs.find((s) => s.done !== undefined)) !== undefined,
    timeoutMs,
  );
  return found;
}

const page0 = (d: Device) => {
  const page = d.pages[0];
  if (!page) throw new Error(`${d.name} has no open page`);
  return page;
};

export const SCENARIOS: Scenario[] = [
  {
    name: 'conversation-flapping',
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('conversation');
      const turns = rng.int(3, 5);
      await whileFlapping(
        r,
        r.rng,
        ['cut-to-app', 'cut-to-app', 'cut-to-gateway', 'cut-now', 'down', 'down', 'delay', 'restart'],
        async () => {
          for (let i = 0; i < turns; i++) {
            await r.send(a, page0(a), `turn ${i}`);
            await sleep(rng.int(0, 2500));
          }
        },
      );
    },
  },
  {
    name: 'gateway-killed-mid-stream',
    streamDelayMs: 60,
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('kill');
      const kills = rng.int(1, 2);
      for (let i = 0; i < kills; i++) {
        await r.send(a, page0(a), `before kill ${i}`);
        const streaming = await r.waitForStreaming(page0(a));
        await sleep(rng.int(0, 400));
        r.note(streaming ? 'killing mid-stream' : 'no stream seen; killing anyway');
        await r.killGateway();
        await sleep(rng.int(200, 2000));
        await r.restartGateway();
      }
      await r.send(a, page0(a), 'after the restarts');
    },
  },
  {
    name: 'reload-during-send',
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('reload');
      r.proxy.setDelay(rng.int(50, 400));
      const sends = rng.int(2, 4);
      for (let i = 0; i < sends; i++) {
        await r.send(a, page0(a), `reload ${i}`);
        await sleep(rng.int(0, 500));
        r.note('reload');
        await page0(a).reload();
        if (rng.chance(0.3)) {
          await sleep(rng.int(0, 300));
          r.note('reload again');
          await page0(a).reload();
        }
        await openLane(page0(a), r);
      }
    },
  },
  {
    name: 'offline-ten-then-reconnect',
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('offline');
      r.proxy.down();
      r.note('link down');
      const reloadAfter = new Set([rng.int(0, 9), rng.int(0, 9)].slice(0, rng.int(0, 2)));
      for (let i = 0; i < 10; i++) {
        await r.send(a, page0(a), `offline ${i}`);
        if (reloadAfter.has(i)) {
          r.note('reload while offline');
          await page0(a).reload();
          await openLane(page0(a), r);
        }
      }
      // Back online; the drain and the ten replies run into more faults.
      r.proxy.up();
      await nudgeOnline(page0(a));
      r.note('link up');
      const faults = rng.int(1, 3);
      for (let i = 0; i < faults; i++) {
        await sleep(rng.int(100, 2000));
        await injectFault(r, rng, ['cut-to-app', 'cut-to-gateway', 'cut-now', 'down', 'delay']);
      }
    },
  },
  {
    name: 'two-tabs-leader-closed',
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('tabs');
      const leader = page0(a);
      const follower = await r.openTab(a);
      await sleep(300);
      await r.send(a, rng.chance(0.5) ? leader : follower, 'two tabs');
      const streaming = await r.waitForStreaming(follower);
      await sleep(rng.int(0, 300));
      r.note(streaming ? 'closing the leader tab mid-stream' : 'no stream seen; closing the leader tab');
      await r.closeTab(a, leader);
      if (rng.chance(0.5)) await injectFault(r, rng, ['cut-to-app', 'cut-now', 'down']);
      await r.send(a, follower, 'after the hand-over');
    },
  },
  {
    name: 'second-device-catches-up',
    async run(r) {
      const a = await r.addDevice('A');
      const b = await r.addDevice('B');
      const rng = r.rng.fork('catch-up');
      await r.closeTab(b, page0(b));
      r.note('B offline (app closed)');
      const turns = rng.int(2, 4);
      await whileFlapping(r, r.rng, ['cut-to-app', 'cut-now', 'down', 'delay'], async () => {
        for (let i = 0; i < turns; i++) {
          await r.send(a, page0(a), `while B is away ${i}`);
          await sleep(rng.int(200, 1500));
        }
      });
      r.proxy.up();
      r.proxy.setDelay(0);
      // B comes back; its replay may be cut in the middle.
      const cut = rng.chance(0.7)
        ? r.proxy.cutMidFrame({ direction: 'toApp', scope: 'next', afterBytes: rng.int(0, 3000), withinMs: 3000 })
        : undefined;
      const page = await r.openTab(b);
      r.note('B back');
      if (cut) r.note(`B's first link cut ${(await cut) ? 'inside a frame' : 'between frames'}`);
      await nudgeOnline(page);
    },
  },
  {
    // The live cursor (spec README §16): the tab dies right after storing a frame, before the next.
    // Its successor must sync from what the dead tab stored and be replayed all of the rest.
    name: 'tab-killed-between-frames',
    streamDelayMs: 60,
    async run(r) {
      const a = await r.addDevice('A');
      const rng = r.rng.fork('crash');
      const kills = rng.int(1, 2);
      for (let i = 0; i < kills; i++) {
        const page = page0(a);
        const before = await storedCursor(page);
        await r.send(a, page, `before the kill ${i}`);
        // A few frames of the turn applied live (the echo, busy, start, tool…), then the kill at once.
        const seen = await r.waitForCursor(page, before + rng.int(1, 5));
        await r.crashTab(a, page);
        r.note(
          seen === undefined ? 'tab killed (no stored frame seen)' : `tab killed right after storing cursor ${seen}`,
        );
        await sleep(rng.int(0, 1500));
        const next = await r.openTab(a);
        r.note('tab opened again');
        const synced = await waitForSync(r, next);
        if (!synced) {
          r.find('stuck', `the reopened tab finished no sync`);
          continue;
        }
        r.note(`synced from ${synced.cursor}: ${synced.replayed.length} frame(s) replayed to ${synced.done}`);
        if (seen !== undefined && synced.cursor < seen)
          r.find(
            'duplicated',
            `the reopened tab synced from ${synced.cursor}, before the ${seen} the killed tab had stored`,
          );
        const got = new Set(synced.replayed);
        for (let c = synced.cursor + 1; c <= synced.done!; c++) {
          if (!got.has(c)) {
            r.find('lost', `the sync from ${synced.cursor} to ${synced.done} did not replay cursor ${c}`);
            break;
          }
        }
      }
      await r.send(a, page0(a), 'after the kills');
    },
  },
  {
    // A frame's write fails as with a full disk, mid-stream; the stored cursor stays before it, and
    // a sync from there on the same connection brings it again once there is room (spec README §16).
    name: 'quota-full-mid-stream',
    streamDelayMs: 40,
    async run(r) {
      const a = await r.addDevice('A');
      const page = page0(a);
      const rng = r.rng.fork('quota');
      const turns = rng.int(1, 3);
      for (let i = 0; i < turns; i++) {
        await r.send(a, page, `disk full ${i}`);
        await r.waitForStreaming(page);
        await sleep(rng.int(0, 800));
        const ms = rng.int(50, 1500);
        const before = await r.wire(page);
        await setDiskFull(page, true);
        await sleep(ms);
        await setDiskFull(page, false);
        const after = await r.wire(page);
        r.note(
          `disk full for ${ms} ms: ${after.writesRefused - before.writesRefused} write(s) refused, ${after.cursorWritesRefused - before.cursorWritesRefused} of them with a cursor`,
        );
      }
      // With room again, what failed comes again: the settled checks find every reply final and the
      // cursor at the gateway's newest. Without a reconnect (whose history page could hide a frame
      // never replayed) only a sync from the held cursor can bring it.
      const deviceId = (await readApp(page)).deviceId;
      const caughtUp = await waitUntilTrue(async () => {
        const newest = deviceId ? (await r.gateway.snapshot([], [deviceId])).cursors[deviceId] : undefined;
        return newest !== undefined && (await storedCursor(page)) === newest;
      }, 20_000);
      if (!caughtUp) r.note('the cursor had not caught up 20 s after the disk had room');
      const wire = await r.wire(page);
      const resyncs = wire.syncs.filter((s) => s.socket === 1).length - 1;
      r.note(
        `${resyncs} sync(s) on the first socket after its own, ${wire.sockets} socket(s): ${JSON.stringify(wire.syncs.map((s) => [s.socket, s.cursor, s.replayed.length, s.done]))}`,
      );
    },
  },
  {
    name: 'upload-cut-mid-way',
    async run(r) {
      const a = await r.addDevice('A');
      const page = page0(a);
      const rng = r.rng.fork('upload');
      const size = rng.int(600_000, 3_000_000);
      const seed = rng.int(1, 2 ** 30);
      // Attached the way a person does it: the Attach button's file chooser.
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach' }).click();
      await (
        await chooser
      ).setFiles([
        {
          name: `fault-${seed}.bin`,
          mimeType: 'application/octet-stream',
          buffer: Buffer.from(uploadBytes(size, seed)),
        },
      ]);
      await page.getByRole('list', { name: 'Attachments' }).getByRole('listitem').first().waitFor();
      // The link dies inside a binary frame somewhere in the file's bytes.
      const cut = r.proxy.cutMidFrame({
        direction: 'toGateway',
        afterBytes: Math.floor(size * (0.1 + 0.8 * rng.next())),
        withinMs: 15_000,
      });
      const text = await r.send(a, page, 'upload');
      r.expectUpload(text, size, seed);
      r.note(`upload of ${size} bytes cut ${(await cut) ? 'inside a frame' : 'between frames'}`);
      if (rng.chance(0.4)) {
        await sleep(rng.int(50, 400));
        await injectFault(r, rng, ['cut-to-gateway', 'cut-now', 'down']);
      }
    },
  },
];
