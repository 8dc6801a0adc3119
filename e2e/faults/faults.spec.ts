// `npm test`'s share of the fault suite: two runs of each scenario with a fixed seed (the full
// randomized suite is `npm run test:faults -- --runs N --seed S`), and a check that the verdict
// really catches each kind of failure.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { AppState } from './app';
import { isClean, judge, type DeviceEvidence } from './checks';
import type { GatewaySnapshot } from './gateway-worker';
import { SCENARIOS } from './scenarios';
import { failed, plan, runOne } from './suite';

const SEED = 20_250_901;
const RUNS_EACH = 2;

test.describe.configure({ mode: 'serial' });

for (const scenario of SCENARIOS) {
  test(`faults: ${scenario.name} (${RUNS_EACH} seeded runs)`, async ({ browser }) => {
    test.setTimeout(RUNS_EACH * 100_000);
    const runs = plan(RUNS_EACH * SCENARIOS.length, SEED)
      .filter((p) => p.scenario === scenario)
      .slice(0, RUNS_EACH);
    expect(runs).toHaveLength(RUNS_EACH);
    for (const { seed } of runs) {
      const result = await runOne(scenario, seed, { browser, distDir: resolve('dist'), settleMs: 40_000 });
      const report = [
        `${scenario.name} seed=${seed}${result.error ? ` error: ${result.error}` : ''}`,
        ...result.verdict.problems,
        ...result.events,
      ].join('\n');
      expect(failed(result), report).toBe(false);
    }
  });
}

test('the verdict reports loss, duplicates, stuck states, reordering and a backwards cursor', () => {
  const lane = 'web:default';
  const gateway: GatewaySnapshot = {
    messages: {
      [lane]: [
        { lane, message_id: 'u1', role: 'user', text: 'one', ts: 1 },
        { lane, message_id: 'a1', role: 'assistant', text: 'reply one', ts: 2 },
        { lane, message_id: 'u3', role: 'user', text: 'three', ts: 3 },
        { lane, message_id: 'u2', role: 'user', text: 'two', ts: 4 },
        { lane, message_id: 'u2b', role: 'user', text: 'two', ts: 5 },
        { lane, message_id: 'a2', role: 'assistant', text: 'reply two', ts: 6 },
      ],
    },
    cursors: { dev: 7 },
    inflight: 0,
    connections: 1,
    media: [],
  };
  const row = (message_id: string, role: string, text: string, status: string) => ({
    message_id,
    lane,
    role,
    text,
    status,
  });
  const good: AppState = {
    messages: [
      row('u1', 'user', 'one', 'sent'),
      row('a1', 'assistant', 'reply one', 'final'),
      row('u3', 'user', 'three', 'sent'),
      row('u2', 'user', 'two', 'sent'),
      row('a2', 'assistant', 'reply two', 'final'),
    ],
    outbox: [],
    cursors: [{ gateway: 'ws://x/ws', cursor: 7 }],
    lanes: [{ lane, busy: false }],
    deviceId: 'dev',
  };
  const device = (state: AppState, typed: string[], cursorSamples = [1, 5, 7]): DeviceEvidence => ({
    name: 'A',
    state,
    typed,
    cursorSamples,
    mirrorsLane: true,
  });

  const clean = judge(
    lane,
    { ...gateway, messages: { [lane]: gateway.messages[lane]!.filter((m) => m.message_id !== 'u2b') } },
    [device(good, ['one', 'three', 'two'])],
  );
  expect(clean.problems).toEqual([]);
  expect(isClean(clean)).toBe(true);

  const v = judge(lane, gateway, [
    device(
      {
        ...good,
        messages: [
          row('u1', 'user', 'one', 'sent'),
          row('local:c9', 'user', 'one', 'pending'),
          row('a1', 'assistant', 'reply o', 'streaming'),
          row('u3', 'user', 'three', 'sent'),
          row('u2', 'user', 'two', 'sent'),
        ],
        outbox: [{ client_id: 'c9', state: 'sending', text: 'one' }],
        lanes: [{ lane, busy: true }],
        cursors: [{ gateway: 'ws://x/ws', cursor: 9 }],
      },
      ['one', 'two', 'three', 'four'],
      [1, 6, 4],
    ),
  ]);
  expect(v.lost).toBe(3); // 'four' never stored; a1 not final; a2 missing
  expect(v.duplicated).toBe(2); // 'two' stored twice; 'one' shown twice
  expect(v.stuck).toBe(4); // pending bubble, streaming bubble, outbox row, busy lane
  expect(v.outOfOrder).toBe(1); // 'three' stored before 'two'
  expect(v.cursorBack).toBe(2); // 6 → 4, and 9 is past the gateway's 7
  // Settled with the cursor behind the gateway's newest: what the app has would come again.
  const once = { ...gateway, messages: { [lane]: gateway.messages[lane]!.filter((m) => m.message_id !== 'u2b') } };
  const behind = judge(lane, once, [
    device({ ...good, cursors: [{ gateway: 'ws://x/ws', cursor: 5 }] }, ['one', 'three', 'two'], [1, 5]),
  ]);
  expect(behind.stuck).toBe(1);
  expect(behind.problems).toEqual([expect.stringContaining('stays behind')]);

  // An upload that reached the gateway with other bytes, or without its file.
  const file = { media_id: 'med_1', kind: 'document' as const, mime: 'x/y', size: 3, filename: 'f' };
  const withFile: GatewaySnapshot = {
    ...gateway,
    messages: { [lane]: [{ lane, message_id: 'u1', role: 'user', text: 'one', ts: 1, media: [file] }] },
    media: [{ ...file, sha256: 'aaa' }],
  };
  const sender = { ...device({ ...good, messages: [row('u1', 'user', 'one', 'sent')] }, ['one']), mirrorsLane: false };
  const upload = (sha256: string) => judge(lane, withFile, [sender], { text: 'one', size: 3, sha256 });
  expect(upload('aaa').problems).toEqual([]);
  expect(upload('bbb').lost).toBe(1);
  const noFile: GatewaySnapshot = {
    ...withFile,
    messages: { [lane]: [{ lane, message_id: 'u1', role: 'user', text: 'one', ts: 1 }] },
  };
  expect(judge(lane, noFile, [sender], { text: 'one', size: 3, sha256: 'aaa' }).lost).toBe(1);
});
