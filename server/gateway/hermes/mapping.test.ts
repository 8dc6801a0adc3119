// The Hermes bridge on event streams recorded from a real hermes-agent 0.19.0 (fixtures/, made by
// e2e/hermes/record.ts), replayed byte for byte: every event type, bad events, a stream cut mid-run,
// a wrong key, an older Hermes, and a restart of our gateway mid-run.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StandaloneGateway } from '../standalone';
import type { TestClient } from '../testclient';
import { useGateway } from '../testing';
import { makePng } from '../agent/png';
import { HermesAgent } from './agent';
import { historyFromSession, importedId, toolSucceeded } from './history';
import { loadFixture, startReplayHermes, type ReplayHermes } from './testing/replay';

const token = 'hermes-bridge-token';
let hermes: ReplayHermes;

// Registered before the gateway fixture's hooks, so our gateway (and its devices) close before Hermes does.
beforeEach(async () => {
  hermes = await startReplayHermes();
});
afterEach(async () => {
  await hermes.close();
});
// Each test starts its gateway with gateway(), on a HermesAgent pointed at this test's replayed Hermes.
const gatewayFixture = useGateway({
  token,
  streamDelayMs: 0,
  startBeforeEach: false,
  recordPushes: true,
  tempDataDir: true,
});

async function gateway(
  opts: { dataDir?: string; key?: string; url?: string; maxPollMs?: number } = {},
): Promise<StandaloneGateway> {
  const agent = new HermesAgent({
    url: opts.url ?? hermes.url,
    key: opts.key ?? hermes.key,
    probeIntervalMs: 100,
    pollIntervalMs: 20,
    ...(opts.maxPollMs !== undefined ? { maxPollMs: opts.maxPollMs } : {}),
  });
  // In memory unless the test keeps a data dir (the fixture's, kept across restarts).
  const gw = await gatewayFixture.restart({ dataDir: opts.dataDir, agent });
  await agent.probe();
  return gw;
}

function device(id = 'dev-a'): Promise<TestClient> {
  return gatewayFixture.device(id, { caps: { push: 'ntfy' }, extra: { ntfy_topic: 't-' + id } });
}

const runCalls = () => hermes.calls.filter((c) => c.method === 'POST' && c.path === '/v1/runs');

describe('HermesAgent on recorded hermes-agent 0.19.0 streams', () => {
  it('streams a reply: deltas as growing updates, then the final text with the reasoning, model and tokens Hermes kept', async () => {
    const fixture = loadFixture('text');
    expect(fixture.hermes_version).toBe('0.19.0');
    hermes.play(fixture);
    await gateway();
    const c = await device();
    const { echo, stop, from } = await c.chat('Hello Hermes, how are you?');
    const types = c.frames.slice(from).map((f) => f.type);
    expect(types.indexOf('message.start')).toBeLessThan(types.indexOf('message.update'));
    const updates = c.ofType('message.update', from).map((f) => f.payload.text as string);
    expect(updates.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < updates.length; i++) expect(updates[i].startsWith(updates[i - 1])).toBe(true);
    expect(stop!.payload.final_text).toBe(fixture.run.output);
    expect(stop!.payload.reasoning).toBe('The person wrote 26 characters; I answer briefly.');
    expect(stop!.payload.model).toBe('iris-scripted-1');
    expect(stop!.payload.tokens).toBe(17);
    // The run is in the lane's own Hermes session; a resend of the same client_id cannot start a second one.
    const call = runCalls()[0];
    expect(call.body).toMatchObject({ input: 'Hello Hermes, how are you?' });
    expect(String((call.body as { session_id: string }).session_id)).toMatch(/^iris-web-default-/);
    expect(call.headers['idempotency-key']).toBe(echo.payload.client_id);
    const again = await c.request(
      'message.send',
      { text: 'Hello Hermes, how are you?', client_id: echo.payload.client_id },
      {},
    );
    expect(again.payload.message_id).toBe(echo.payload.message_id);
    expect(runCalls()).toHaveLength(1);
    expect(gatewayFixture.gw.gateway.store.messages('web:default').at(-1)).toMatchObject({
      role: 'assistant',
      text: fixture.run.output,
      model: 'iris-scripted-1',
    });
  });

  it('maps tool.started / tool.completed to a tool card with name, preview and duration', async () => {
    hermes.play(loadFixture('tool'));
    await gateway();
    const c = await device();
    const { stop, from } = await c.chat('Please run a command [echo]');
    const start = c.ofType('tool.start', from)[0];
    const end = c.ofType('tool.end', from)[0];
    expect(start.payload).toMatchObject({ index: 0, name: 'terminal', preview: 'echo iris-tool-ok' });
    expect(end.payload).toMatchObject({ index: 0, name: 'terminal', ok: true });
    expect(end.payload.duration).toBeGreaterThan(0);
    expect(stop!.payload.final_text).toBe('The command printed: iris-tool-ok');
    // The `tools` extension: history keeps the run's calls with its reply.
    const page = await c.request('history', { limit: 5 }, {});
    expect((page.payload.messages as { tools?: unknown }[]).at(-1)?.tools).toEqual([
      { index: 0, name: 'terminal', ok: true, duration: end.payload.duration, preview: 'echo iris-tool-ok' },
    ]);
  });

  it('turns approval.request into picker.approval with a push, and the answer into POST …/approval', async () => {
    hermes.play(loadFixture('approval-once'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Clean up', client_id: 'c-approve' }, {});
    const picker = await c.waitType('picker.approval', { from });
    expect(String(picker.payload.command)).toMatch(/^rm -rf \S+once && echo removed-ok$/);
    expect(picker.payload.description).toContain('delete in root path');
    expect(c.ofType('agent.busy', from).at(-1)!.payload.reason).toBe('waiting_input');
    expect(c.ofType('notification', from)[0].payload.kind).toBe('approval');
    expect(
      gatewayFixture.pushed.some(({ payload: p }) => p.kind === 'approval' && p.picker_id === picker.payload.picker_id),
    ).toBe(true);
    const bad = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'maybe' });
    expect(bad.type).toBe('error');
    const ack = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    expect(ack.type).toBe('agent.busy');
    // The extension: every device learns which answer the question took.
    expect(ack.payload.answered).toEqual({ picker_id: picker.payload.picker_id, value: 'once' });
    expect(hermes.calls.find((x) => x.path.endsWith('/approval'))!.body).toEqual({ choice: 'once' });
    const stop = await c.waitType('message.stop', { from });
    expect(stop.payload.final_text).toBe('The command printed: removed-ok');
    const twice = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    expect(twice.payload.code).toBe('not_found');
  });

  it('a device paired while an approval waits is asked it too, and its answer runs the command', async () => {
    hermes.play(loadFixture('approval-once'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Clean up', client_id: 'c-late' }, {});
    const picker = await c.waitType('picker.approval', { from });
    const late = await device('dev-late');
    const restated = await late.waitFor((f) => f.type === 'picker.approval', { what: 'the waiting approval' });
    expect(restated.payload).toEqual(picker.payload);
    expect(typeof restated.cursor).toBe('number'); // outboxed: a sync brings it again until acknowledged
    expect(late.ofType('agent.busy').at(-1)!.payload.reason).toBe('waiting_input');
    const ack = await late.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    expect(ack.type).toBe('agent.busy');
    expect(hermes.calls.find((x) => x.path.endsWith('/approval'))!.body).toEqual({ choice: 'once' });
    await c.waitType('message.stop', { from });
    // Answered: a device paired now is not asked.
    const after = await device('dev-after');
    await after.request('sync', { cursor: 0 });
    expect(after.ofType('picker.approval')).toHaveLength(0);
  });

  it('streams the reasoning live: the step Hermes wrote before the tool shows while the approval waits', async () => {
    hermes.play(loadFixture('approval-once'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Clean up', client_id: 'c-thinking' }, {});
    await c.waitType('picker.approval', { from });
    // Before anyone answers, and before any text: an update carries the model's reasoning of that step.
    const thinking = await c.waitFor((f) => f.type === 'message.update' && f.payload.reasoning !== undefined, {
      from,
    });
    expect(thinking.payload.text).toBe('');
    expect(thinking.payload.reasoning).toMatch(/^I should run `rm -rf \S+once && echo removed-ok` in the terminal\.$/);
    const picker = c.ofType('picker.approval', from)[0];
    await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    const stop = await c.waitType('message.stop', { from });
    // Every later update keeps it (the app shows the newest), and the final reasoning adds the last step's.
    const updates = c.ofType('message.update', from).filter((f) => f.payload.text !== '');
    expect(updates.length).toBeGreaterThan(0);
    for (const u of updates) expect(u.payload.reasoning).toBe(thinking.payload.reasoning);
    expect(stop.payload.reasoning).toBe(`${thinking.payload.reasoning}\n\nThe tool answered; I report what it said.`);
    // The `thought_ms` extension: history says how long it thought before its first text (the approval's wait too).
    const page = await c.request('history', { limit: 5 }, {});
    const kept = (page.payload.messages as { thought_ms?: number }[]).at(-1)!;
    expect(kept.thought_ms).toBeGreaterThan(0);
  });

  it('an approval answered elsewhere (approval.responded) closes the question on every device', async () => {
    hermes.play(loadFixture('approval-once'), { noWait: true });
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Clean up', client_id: 'c-elsewhere' }, {});
    const picker = await c.waitType('picker.approval', { from });
    const after = c.frames.indexOf(picker) + 1;
    await c.waitType('message.stop', { from });
    // Closed when Hermes said it was answered, before the tool went on (not only when the run ended).
    const closing = c.frames.findIndex(
      (f, i) => i >= after && f.type === 'agent.busy' && f.payload.reason === 'processing',
    );
    const toolEnd = c.frames.findIndex((f, i) => i >= after && f.type === 'tool.end');
    expect(closing).toBeGreaterThan(0);
    expect(closing).toBeLessThan(toolEnd);
    // With the choice Hermes took there (the `answered` extension), so the card says it.
    expect(c.frames[closing]!.payload.answered).toEqual({ picker_id: picker.payload.picker_id, value: 'once' });
    const late = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'once' });
    expect(late.payload.code).toBe('not_found');
    expect(hermes.calls.some((x) => x.path.endsWith('/approval'))).toBe(false);
  });

  it('a denied approval leaves the command unrun, and the reply says so', async () => {
    hermes.play(loadFixture('approval-deny'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Clean up', client_id: 'c-deny' }, {});
    const picker = await c.waitType('picker.approval', { from });
    await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'deny' });
    const stop = await c.waitType('message.stop', { from });
    expect(stop.payload.final_text).toMatch(/^The command was not run: BLOCKED: Command denied by user/);
    expect(c.ofType('tool.end', from)[0].payload.ok).toBe(false);
  });

  it('agent.stop → POST …/stop; run.cancelled ends the reply with the text so far and answers the stop', async () => {
    hermes.play(loadFixture('stopped'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'Tell me a long story [slow]', client_id: 'c-stop' }, {});
    await c.waitFor((f) => f.type === 'message.update' && String(f.payload.text).includes('line 5.'), { from });
    const idle = await c.request('agent.stop', {}, {});
    expect(idle.type).toBe('agent.idle');
    expect(hermes.calls.some((x) => x.method === 'POST' && x.path.endsWith('/stop'))).toBe(true);
    const stop = c.ofType('message.stop', from)[0];
    expect(stop.payload.final_text).toBe('Slow line 1.\nSlow line 2.\nSlow line 3.\nSlow line 4.\nSlow line 5.\n');
    // The extension (README): stopped, for every device and in history.
    expect(stop.payload.stopped).toBe(true);
    const page = await c.request('history', { limit: 5 }, {});
    expect((page.payload.messages as { stopped?: boolean }[]).at(-1)?.stopped).toBe(true);
  });

  it('run.failed becomes a final message that says what failed', async () => {
    hermes.play(loadFixture('failed'));
    await gateway();
    const c = await device();
    const { stop } = await c.chat('Break please [fail]');
    expect(stop!.payload.final_text).toBe(
      '⚠️ Hermes could not finish this reply: HTTP 400: The scripted model failed on cue.',
    );
    expect(stop!.payload.stopped, 'failed, not stopped by anyone').toBeUndefined();
  });

  it('ignores malformed and unknown events and finishes the reply', async () => {
    hermes.play(loadFixture('text'), {
      inject: {
        beforeBlock: 2,
        raw: 'data: {not json\n\ndata: [1,2]\n\ndata: {"event": "subagent.start", "x": 1}\n\n: comment\n\nevent: ping\n\n',
      },
    });
    await gateway();
    const c = await device();
    const { stop } = await c.chat('Hello Hermes, how are you?');
    expect(stop!.payload.final_text).toBe(loadFixture('text').run.output);
  });

  it('a stream dropped mid-run is followed by GET /v1/runs/{id} and closed with Hermes’s final output', async () => {
    const fixture = loadFixture('tool');
    hermes.play(fixture, { cutAfterBlocks: 2 });
    await gateway();
    const c = await device();
    const { stop, from } = await c.chat('Please run a command [echo]');
    expect(stop!.payload.final_text).toBe(fixture.run.output);
    expect(hermes.calls.some((x) => x.method === 'GET' && /^\/v1\/runs\/run_\w+$/.test(x.path))).toBe(true);
    // The open tool card is closed, not left spinning.
    expect(c.ofType('tool.end', from)).toHaveLength(1);
  });

  it('each channel is its own Hermes session, and a lane’s earlier words go with its next run', async () => {
    hermes.play(loadFixture('text'));
    hermes.play(loadFixture('text'));
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    await c.chat('first in general');
    await c.chat('second in general');
    await c.chat('first in demo', { chat_id: 'web:demo' });
    const [a, b, d] = runCalls().map(
      (x) => x.body as { session_id: string; conversation_history?: Array<{ role: string; content: string }> },
    );
    expect(a.session_id).toBe(b.session_id);
    expect(d.session_id).not.toBe(a.session_id);
    expect(a.conversation_history).toBeUndefined();
    expect(b.conversation_history?.map((m) => m.content)).toEqual(['first in general', loadFixture('text').run.output]);
    expect(d.conversation_history).toBeUndefined();
  });

  it('steer is refused in words (0.19.0 has no steer endpoint); unknown slash commands are answered, not sent', async () => {
    hermes.play(loadFixture('stopped'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: 'long [slow]', client_id: 'c-steer' }, {});
    await c.waitType('message.update', { from });
    const steer = await c.request('agent.steer', { text: 'shorter please' }, {});
    expect(steer.payload.code).toBe('unsupported');
    expect(steer.payload.message).toMatch(/cannot be steered/);
    await c.request('agent.stop', {}, {});
    const words = await c.request('message.send', { text: '/new', client_id: 'c-new' }, {});
    expect(words.type).toBe('message');
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(reply.payload.text).toMatch(/`\/new` is not available here/);
    expect(runCalls()).toHaveLength(1);
    const catalog = await c.request('commands.catalog');
    expect(catalog.payload.commands.map((x: { name: string }) => x.name)).toEqual(['model', 'attach', 'help']);
  });

  it('/help says what works and what not with this Hermes, clarify and steer included, with the reasons', async () => {
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: '/help', client_id: 'c-help' }, {});
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    const text = String(reply.payload.text);
    expect(text).toMatch(/^You are talking to \*\*Hermes 0\.19\.0\*\* \(model hermes-agent\) through its API server\./);
    expect(text).toContain('Not with hermes-agent 0.19.0:');
    expect(text).toContain("- clarifying questions: the API server's toolset has no clarify tool");
    expect(text).toContain('- steering a running reply: its API server has no steer endpoint');
    expect(runCalls()).toHaveLength(0);
  });

  it('/model offers Hermes’s /v1/models; the choice goes with the lane’s next run', async () => {
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: '/model', client_id: 'c-model' }, {});
    const picker = await c.waitType('picker.model', { from });
    expect(picker.payload.providers[0].models.map((m: { id: string }) => m.id)).toEqual(['hermes-agent', 'fast-route']);
    const ack = await c.request('picker.select', { picker_id: picker.payload.picker_id, value: 'hermes:fast-route' });
    expect(ack.type).toBe('agent.busy');
    expect(ack.payload.answered).toEqual({ picker_id: picker.payload.picker_id, value: 'hermes:fast-route' });
    await c.chat('Hello Hermes, how are you?');
    expect(runCalls()[0].body).toMatchObject({ model: 'fast-route' });
  });

  /** Uploads `bytes` as `filename` (typed `mime`) and returns its media_ref. */
  async function upload(c: TestClient, ref: string, filename: string, mime: string, bytes: Buffer): Promise<string> {
    const { createHash } = await import('node:crypto');
    const id = c.takeId();
    const ack = c.waitFor((f) => f.id === id, { what: 'media.upload.ack' });
    const kind = mime.startsWith('image/') ? 'image' : 'document';
    c.send('media.upload.start', { media_ref: ref, kind, mime, size: bytes.length, filename }, { id });
    for (let at = 0; at < bytes.length; at += 256 * 1024) c.sendRaw(bytes.subarray(at, at + 256 * 1024), true);
    c.send('media.upload.end', { media_ref: ref, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await ack).type).toBe('media.upload.ack');
    return ref;
  }

  it('a picture goes to Hermes inline, as an image part of the run’s input', async () => {
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    const bytes = makePng('hermes-test');
    await upload(c, 'ref-png', 'cat.png', 'image/png', bytes);
    await c.chat('what is this?', {}, { media_refs: ['ref-png'] });
    const input = (runCalls()[0].body as { input: Array<{ role: string; content: Array<Record<string, unknown>> }> })
      .input;
    expect(input[0].role).toBe('user');
    expect(input[0].content[0]).toEqual({ type: 'text', text: 'what is this?' });
    expect(input[0].content[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` },
    });
  });

  it('a text file goes to Hermes as its words before the person’s, and stays in the next run’s history', async () => {
    hermes.play(loadFixture('text'));
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    const log = 'ERROR disk full\nretrying in 5 s\n';
    // A .log the browser typed as nothing in particular: its name says text, its bytes are UTF-8.
    await upload(c, 'ref-log', 'server log (1).log', 'application/octet-stream', Buffer.from(log));
    await c.chat('what went wrong?', {}, { media_refs: ['ref-log'] });
    const first = runCalls()[0].body as { input: unknown };
    expect(first.input).toBe(`[Content of server log _1_.log]:\n${log}\n\nwhat went wrong?`);
    await c.chat('and how do I fix it?');
    const second = runCalls()[1].body as { conversation_history: Array<{ role: string; content: string }> };
    expect(second.conversation_history[0]).toEqual({ role: 'user', content: first.input });
  });

  it('files Hermes cannot read are named back with the reason; the rest of the message still goes', async () => {
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    await upload(c, 'ref-pdf', 'report.pdf', 'application/pdf', Buffer.from('%PDF-1.4 not really'));
    await upload(c, 'ref-bin', 'data.csv', 'text/csv', Buffer.from([0x61, 0x00, 0x62]));
    await upload(c, 'ref-latin', 'notes.txt', 'text/plain', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await upload(c, 'ref-bmp', 'scan.bmp', 'image/bmp', Buffer.from('BM not really'));
    await upload(c, 'ref-voice', 'voice.webm', 'audio/webm', Buffer.from('not really sound'));
    await upload(c, 'ref-ok', 'ok.md', 'text/markdown', Buffer.from('# fine'));
    const from = c.mark();
    const echo = await c.request(
      'message.send',
      {
        text: '',
        media_refs: ['ref-pdf', 'ref-bin', 'ref-latin', 'ref-bmp', 'ref-voice', 'ref-ok'],
        client_id: 'c-files',
      },
      {},
    );
    expect(echo.type).toBe('message');
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(reply.payload.text).toBe(
      'Not sent to Hermes: **report.pdf** (neither a picture nor a text file), ' +
        '**data.csv** (not UTF-8 text), **notes.txt** (not UTF-8 text), **scan.bmp** (a kind of picture Hermes does ' +
        "not take; it takes PNG, JPEG, WebP and GIF), **voice.webm** (a recording: Hermes's API server takes no " +
        'sound). Hermes reads pictures up to 5 MB and UTF-8 ' +
        'text files up to 100 KB. I sent Hermes the rest of your message.',
    );
    await vi.waitFor(() => expect(runCalls()).toHaveLength(1));
    expect((runCalls()[0].body as { input: unknown }).input).toBe('[Content of ok.md]:\n# fine');
  });

  it('of a text file over 100 KB Hermes gets its last lines up to 100 KB, and the person is told so', async () => {
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    // 3,000 lines of 100 bytes (300,000 bytes), the last one naming the failure.
    const lines = Array.from({ length: 3000 }, (_, i) => `${String(i + 1).padStart(5, '0')} ${'.'.repeat(93)}`);
    lines[2999] = `03000 FAILED: disk full${' '.repeat(76)}`;
    const log = Buffer.from(lines.join('\n') + '\n');
    await upload(c, 'ref-big', 'server.log', 'text/plain', log);
    const from = c.mark();
    await c.request('message.send', { text: 'why?', media_refs: ['ref-big'], client_id: 'c-big' }, {});
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(reply.payload.text).toBe(
      'Sent to Hermes in part: **server.log** (its last 100 KB of 293 KB). Hermes reads pictures up to 5 MB and ' +
        'UTF-8 text files up to 100 KB.',
    );
    await vi.waitFor(() => expect(runCalls()).toHaveLength(1));
    const input = (runCalls()[0].body as { input: string }).input;
    const [header, ...rest] = input.split('\n');
    expect(header).toBe('[Content of server.log, its last 100 KB of 293 KB]:');
    // Whole lines from a line's start, through the last, then the person's words.
    expect(rest[0]).toMatch(/^\d{5} \.{93}$/);
    expect(input.endsWith(`03000 FAILED: disk full${' '.repeat(76)}\n\n\nwhy?`)).toBe(true);
    expect(Buffer.byteLength(input)).toBeLessThanOrEqual(100 * 1024 + 200);
  });

  it('a message’s pictures and text files are bounded together (Hermes takes a body of 10 MB at most)', async () => {
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    const picture = (n: number) => Buffer.concat([makePng(`p${n}`), Buffer.alloc(3 * 1024 * 1024)]);
    await upload(c, 'ref-p1', 'one.png', 'image/png', picture(1));
    await upload(c, 'ref-p2', 'two.png', 'image/png', picture(2));
    const refs = ['ref-p1', 'ref-p2'];
    for (let i = 1; i <= 5; i++) {
      await upload(c, `ref-t${i}`, `part${i}.txt`, 'text/plain', Buffer.alloc(90 * 1024, 'x'));
      refs.push(`ref-t${i}`);
    }
    const from = c.mark();
    await c.request('message.send', { text: 'all of these', media_refs: refs, client_id: 'c-many' }, {});
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(reply.payload.text).toContain(
      '**two.png** (past the 6 MB of pictures Hermes is sent with one message), ' +
        '**part5.txt** (past the 400 KB of text files Hermes is sent with one message)',
    );
    await vi.waitFor(() => expect(runCalls()).toHaveLength(1));
    const input = (runCalls()[0].body as { input: Array<{ content: Array<{ type: string; text?: string }> }> }).input;
    expect(input[0].content.filter((p) => p.type === 'image_url')).toHaveLength(1);
    expect(input[0].content[0].text!.match(/\[Content of part\d\.txt\]/g)).toEqual([
      '[Content of part1.txt]',
      '[Content of part2.txt]',
      '[Content of part3.txt]',
      '[Content of part4.txt]',
    ]);
  });

  it('a run’s history repeats earlier files’ words, the newest first, up to a bound; older ones by name', async () => {
    for (let i = 0; i < 4; i++) hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    for (let i = 1; i <= 3; i++) {
      await upload(c, `ref-log${i}`, `day${i}.log`, 'text/plain', Buffer.alloc(100 * 1024, String(i)));
      await c.chat(`log ${i}`, {}, { media_refs: [`ref-log${i}`] });
    }
    await c.chat('what changed?');
    const body = runCalls()[3].body as { conversation_history: Array<{ role: string; content: string }> };
    const mine = body.conversation_history.filter((m) => m.role === 'user').map((m) => m.content);
    expect(mine).toHaveLength(3);
    expect(mine[0]).toBe(
      "[Content of day1.log]: (left out here: the conversation's earlier files are too long to repeat)\n\nlog 1",
    );
    expect(mine[1]).toBe(`[Content of day2.log]:\n${'2'.repeat(100 * 1024)}\n\nlog 2`);
    expect(mine[2]).toBe(`[Content of day3.log]:\n${'3'.repeat(100 * 1024)}\n\nlog 3`);
  });

  it('a run over Hermes’s 10 MB body limit leaves out the oldest of its history, never the message', async () => {
    for (let i = 0; i < 4; i++) hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    for (let i = 1; i <= 3; i++) await c.chat(`${i}`.repeat(700 * 1024));
    const picture = (n: number) => Buffer.concat([makePng(`p${n}`), Buffer.alloc(2.9 * 1024 * 1024)]);
    await upload(c, 'ref-a', 'a.png', 'image/png', picture(1));
    await upload(c, 'ref-b', 'b.png', 'image/png', picture(2));
    await c.chat('compare them', {}, { media_refs: ['ref-a', 'ref-b'] });
    const call = runCalls()[3];
    const body = call.body as { input: unknown[]; conversation_history: Array<{ role: string; content: string }> };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(9_900_000);
    expect((body.input[0] as { content: unknown[] }).content).toHaveLength(3);
    const mine = body.conversation_history.filter((m) => m.role === 'user').map((m) => m.content[0]);
    expect(mine).toEqual(['2', '3']);
  });

  it('a message of files Hermes cannot read is answered in words and not sent; the message is still stored', async () => {
    await gateway();
    const c = await device();
    await upload(c, 'ref-pdf', 'report.pdf', 'application/pdf', Buffer.from('%PDF-1.4 not really'));
    const from = c.mark();
    const echo = await c.request('message.send', { text: '', media_refs: ['ref-pdf'], client_id: 'c-pdf' }, {});
    expect(echo.type).toBe('message');
    const reply = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(reply.payload.text).toMatch(
      /^Not sent to Hermes: \*\*report\.pdf\*\* \(neither a picture nor a text file\)\. Hermes reads pictures up to 5 MB and UTF-8 text files up to 100 KB\.$/,
    );
    expect(runCalls()).toHaveLength(0);
    expect(
      gatewayFixture.gw.gateway.store.messages('web:default').some((m) => m.message_id === echo.payload.message_id),
    ).toBe(true);
  });
});

describe('HermesAgent health', () => {
  it('a wrong key: status degraded with the reason, and a message gets a final answer in words, not a hung bubble', async () => {
    await gateway({ key: 'wrong-key-0123456789abcdef' });
    const c = await device();
    const status = await c.waitType('status');
    expect(status.payload.state).toBe('degraded');
    expect(status.payload.session.agent.problem).toMatch(/refused the API key \(HTTP 401\)/);
    expect(JSON.stringify(status.payload)).not.toContain(hermes.key);
    const { stop } = await c.chat('anyone there?');
    expect(stop!.payload.final_text).toMatch(/refused the API key.*Your message is kept/);
  });

  it('an older Hermes without /v1/capabilities is "too old"', async () => {
    hermes.configure({ noCapabilities: true });
    await gateway();
    const c = await device();
    const status = await c.waitType('status');
    expect(status.payload.session.agent.problem).toMatch(/too old for Iris Web/);
  });

  it('unreachable, then back: live devices are told degraded (with the reason), then online again', async () => {
    await gateway();
    const c = await device();
    expect((await c.waitType('status')).payload.state).toBe('online');
    const port = Number(new URL(hermes.url).port);
    const from = c.mark();
    await hermes.close();
    const down = await c.waitFor((f) => f.type === 'status' && f.payload.state === 'degraded', { from });
    expect(down.payload.session.agent.problem).toMatch(/is not reachable/);
    hermes = await startReplayHermes(hermes.key, port);
    const up = await c.waitFor((f) => f.type === 'status' && f.payload.state === 'online', { from });
    expect(up.payload.session.agent.name).toBe('Hermes 0.19.0');
    // Not outboxed: a device that comes back later hears the current state at hello, not old news.
    expect(
      gatewayFixture.gw.gateway.store.devices.since('dev-a', 0).some((e) => JSON.stringify(e).includes('"status"')),
    ).toBe(false);
  });

  it('healthy: status online names Hermes, its version and model', async () => {
    await gateway();
    const c = await device();
    const status = await c.waitType('status');
    expect(status.payload).toEqual({
      state: 'online',
      session: {
        agent: {
          kind: 'hermes',
          name: 'Hermes 0.19.0',
          version: '0.19.0',
          model: 'hermes-agent',
          url: hermes.url,
          steer: false,
        },
      },
    });
  });
});

describe('HermesAgent across a restart of our gateway', () => {
  // The run asks for an approval, our gateway goes down, and meanwhile the run ends in Hermes (its events
  // are gone with our old connection; its status is not). The recording's steps (a tool run, then the
  // reply), with its end as recorded or changed: the session holds the tool call whatever ended the run.
  const recorded = () => loadFixture('approval-once');
  it.each([
    ['completed', {}, String(recorded().run.output)],
    [
      'failed',
      { status: 'failed', error: 'the model provider went away', output: undefined },
      '⚠️ Hermes could not finish this reply: the model provider went away',
    ],
    ['cancelled', { status: 'cancelled', output: undefined }, '_(Stopped before Hermes wrote anything.)_'],
  ])(
    'a run that ended (%s) in Hermes while our gateway was down: a device away gets its end by sync, once, and history lists the tool it ran',
    async (name, end, finalText) => {
      const dataDir = gatewayFixture.dataDir;
      const fixture = recorded();
      hermes.play({ ...fixture, run: { ...fixture.run, ...end } });
      await gateway({ dataDir });
      const c = await device();
      const from = c.mark();
      await c.request('message.send', { text: 'Clean up', client_id: `c-${name}` }, {});
      await c.waitType('picker.approval', { from });
      await c.close();
      await gatewayFixture.stop();
      await gateway({ dataDir });
      const back = await device();
      back.send('sync', { cursor: 0 });
      const stop = await back.waitFor((f) => f.type === 'message.stop');
      expect(stop.payload.final_text).toBe(finalText);
      await back.waitType('sync.done');
      expect(back.ofType('message.stop')).toHaveLength(1);
      const stored = gatewayFixture.gw.gateway.store.messages('web:default').filter((m) => m.role === 'assistant');
      expect(stored).toHaveLength(1);
      // Read from the session (approved before the restart, the tool ran in Hermes).
      expect(stored[0].tools).toEqual([
        { index: 0, name: 'terminal', ok: true, preview: expect.stringMatching(/^rm -rf .* && echo removed-ok$/) },
      ]);
      const page = await back.request('history', { limit: 50 });
      const reply = page.payload.messages.find((m: { message_id: string }) => m.message_id === stop.payload.message_id);
      expect(reply.tools).toEqual(stored[0].tools);
    },
  );
  it('a thread is its own Hermes session, and each lane keeps its session id across our restart (hermes.json)', async () => {
    const dataDir = gatewayFixture.dataDir;
    for (let i = 0; i < 4; i++) hermes.play(loadFixture('text'));
    await gateway({ dataDir });
    const c = await device();
    const created = await c.request('channel.create', { name: 'T', kind: 'thread', parent_chat_id: 'web:default' });
    const thread = created.payload.chat_id as string;
    await c.chat('in the channel');
    await c.chat('in the thread', { chat_id: 'web:default', thread_id: thread });
    await c.close();
    await gatewayFixture.stop();
    await gateway({ dataDir });
    const back = await device();
    await back.chat('in the thread again', { chat_id: 'web:default', thread_id: thread });
    await back.chat('in the channel again');
    const sessions = runCalls().map((x) => (x.body as { session_id: string }).session_id);
    expect(sessions).toHaveLength(4);
    const [channel, threadSession, threadAgain, channelAgain] = sessions;
    expect(threadSession).not.toBe(channel);
    expect(threadAgain).toBe(threadSession);
    expect(channelAgain).toBe(channel);
  });

  /** Our gateway goes down mid-run (after `midRun`), and comes back on the same data dir. */
  async function restartMidRun(midRun: (c: TestClient, from: number) => Promise<void>, between?: () => Promise<void>) {
    const dataDir = gatewayFixture.dataDir;
    await gateway({ dataDir });
    const c = await device();
    const from = c.mark();
    const echo = await c.request('message.send', { text: 'Tell me a long story [slow]', client_id: 'c-mid' }, {});
    await midRun(c, from);
    await c.close();
    await gatewayFixture.stop();
    await between?.();
    return { dataDir, userMessageId: echo.payload.message_id as string };
  }

  /** Once the gateway has closed the reply, a device comes back: the reply it gets by sync, and what was stored. */
  async function replyAfterRestart(userMessageId: string): Promise<string> {
    const lane = () => gatewayFixture.gw.gateway.store.messages('web:default');
    await vi.waitFor(() => expect(lane()).toHaveLength(2), { timeout: 10_000 });
    const back = await device();
    back.send('sync', { cursor: 0 });
    const stop = await back.waitFor((f) => f.type === 'message.stop');
    await back.waitType('sync.done');
    const messageId = stop.payload.message_id as string;
    expect(back.ofType('message.stop').filter((f) => f.payload.message_id === messageId)).toHaveLength(1);
    expect(lane().map((m) => m.message_id)).toEqual([userMessageId, messageId]);
    expect(lane()[1].text).toBe(stop.payload.final_text);
    return stop.payload.final_text as string;
  }

  const streamed = 'Slow line 1.\nSlow line 2.\nSlow line 3.\nSlow line 4.\nSlow line 5.\n';
  const waitStreamed = (c: TestClient, from: number) =>
    c.waitFor((f) => f.type === 'message.update' && f.payload.text === streamed, { from }).then(() => undefined);
  const times = (text: string, part: string) => text.split(part).length - 1;

  it('no run id yet when our gateway went down: the bubble is closed and says it was interrupted', async () => {
    hermes.play(loadFixture('stopped'), { holdStart: true });
    const { dataDir, userMessageId } = await restartMidRun(async (c, from) => {
      await c.waitType('message.start', { from });
      await vi.waitFor(() => expect(runCalls()).toHaveLength(1));
    });
    await gateway({ dataDir });
    const text = await replyAfterRestart(userMessageId);
    expect(text).toBe('_(This reply was interrupted when the gateway restarted.)_');
    expect(hermes.calls.filter((x) => x.method === 'GET' && x.path.startsWith('/v1/runs/'))).toHaveLength(0);
  });

  it('Hermes no longer knows the run after the restart: the reply so far, and words saying so, once', async () => {
    hermes.play(loadFixture('stopped'));
    const port = Number(new URL(hermes.url).port);
    const { dataDir, userMessageId } = await restartMidRun(waitStreamed, async () => {
      // Hermes restarted too: its runs are gone.
      await hermes.close();
      hermes = await startReplayHermes(hermes.key, port);
    });
    await gateway({ dataDir });
    const text = await replyAfterRestart(userMessageId);
    const note = '_(Hermes no longer knows this run (it may have restarted); this is the reply so far.)_';
    expect(text).toBe(`${streamed}\n\n${note}`);
    expect(times(text, note)).toBe(1);
    expect(hermes.calls.some((x) => x.method === 'GET' && /^\/v1\/runs\/run_\w+$/.test(x.path))).toBe(true);
  });

  it('Hermes does not answer after the restart: polling gives up, and the reply so far says so, once', async () => {
    hermes.play(loadFixture('stopped'));
    const { dataDir, userMessageId } = await restartMidRun(waitStreamed, () => hermes.close());
    await gateway({ dataDir, maxPollMs: 150 });
    const text = await replyAfterRestart(userMessageId);
    const note = '_(Hermes stopped answering; this is the reply so far.)_';
    expect(text).toBe(`${streamed}\n\n${note}`);
    expect(times(text, note)).toBe(1);
    hermes = await startReplayHermes(hermes.key); // for afterEach
  });
});

describe('history import (/attach) from a session recorded from hermes-agent 0.19.0', () => {
  const earlier = () => loadFixture('tool'); // session record-tool: a question, a tool step, the reply

  it('maps a session to the lane’s history: words and replies, each reply with the reasoning of its steps', () => {
    const fixture = earlier();
    const data = (fixture.session_messages as { data: Array<Record<string, unknown>> }).data;
    const history = historyFromSession(
      'web:default',
      'record-tool',
      data.map((m) => ({
        id: m.id as number,
        role: m.role as string,
        content: (m.content as string | null) ?? '',
        ...(m.reasoning ? { reasoning: m.reasoning as string } : {}),
        ...(m.tool_name ? { tool_name: m.tool_name as string } : {}),
        ...(m.tool_call_id ? { tool_call_id: m.tool_call_id as string } : {}),
        ...(Array.isArray(m.tool_calls)
          ? {
              tool_calls: (m.tool_calls as { id: string; function: { name: string; arguments: string } }[]).map(
                (c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }),
              ),
            }
          : {}),
        timestamp: m.timestamp as number,
      })),
      'iris-scripted-1',
    );
    expect(history.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Please run a command [echo]'],
      ['assistant', 'The command printed: iris-tool-ok'],
    ]);
    expect(history[1]).toMatchObject({
      reasoning: 'I should run `echo iris-tool-ok` in the terminal.\n\nThe tool answered; I report what it said.',
      model: 'iris-scripted-1',
      ts: Math.round((data[3].timestamp as number) * 1000),
      // Its step's tool, as the live card had it ("terminal", the command), and how it ended (exit 0).
      tools: [{ index: 0, name: 'terminal', ok: true, preview: 'echo iris-tool-ok' }],
    });
    expect(history[0]).not.toHaveProperty('tools');
    expect(history[0].ts).toBe(Math.round((data[0].timestamp as number) * 1000));
    // Stable ids: the same session read again gives the same ids.
    expect(history.map((m) => m.message_id)).toEqual([importedId('record-tool', 3), importedId('record-tool', 6)]);
  });

  it('reads how a tool ended from its result where it says so, and leaves it unknown where it does not', () => {
    expect(toolSucceeded('{"output": "ok", "exit_code": 0, "error": null}')).toBe(true);
    expect(toolSucceeded('{"output": "", "exit_code": 2, "error": null}')).toBe(false);
    expect(toolSucceeded('{"error": "File not found: a.txt"}')).toBe(false);
    expect(toolSucceeded('{"success": false}')).toBe(false);
    expect(toolSucceeded('{"results": []}')).toBe(true);
    expect(toolSucceeded('Error: permission denied')).toBe(false);
    expect(toolSucceeded('{not json')).toBeUndefined();
    expect(toolSucceeded('The page says hello.')).toBeUndefined();
    expect(toolSucceeded('[1, 2]')).toBeUndefined();
  });

  it('gives each reply the tools of its own steps: calls without a result are left out, a result names its tool', () => {
    const history = historyFromSession('web:default', 's', [
      { id: 1, role: 'user', content: 'first' },
      {
        id: 2,
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'a', name: 'read_file', arguments: '{"path": "notes.md\\nmore", "limit": 5}' },
          { id: 'b', name: 'web_search', arguments: 'not json' },
          { id: 'c', name: 'never_answered', arguments: '{}' },
        ],
      },
      { id: 3, role: 'tool', content: '{"content": "# Notes"}', tool_call_id: 'a' },
      { id: 4, role: 'tool', content: 'plain words', tool_call_id: 'b', tool_name: 'web_search' },
      { id: 5, role: 'assistant', content: 'Read it.' },
      { id: 6, role: 'user', content: 'second' },
      { id: 7, role: 'assistant', content: 'No tools this time.' },
    ]);
    expect(history.map((m) => [m.text, m.tools])).toEqual([
      ['first', undefined],
      [
        'Read it.',
        [
          { index: 0, name: 'read_file', ok: true, preview: 'notes.md' },
          { index: 1, name: 'web_search' },
        ],
      ],
      ['second', undefined],
      ['No tools this time.', undefined],
    ]);
  });

  it('/attach imports the session once, before the lane’s own messages; the next run continues it', async () => {
    hermes.seedSession(earlier());
    hermes.play(loadFixture('text'));
    await gateway();
    const c = await device();
    const from = c.mark();
    await c.request('message.send', { text: '/attach record-tool', client_id: 'c-attach' }, {});
    const said = await c.waitFor(
      (f) => f.type === 'message' && f.payload.role === 'assistant' && /now continues/.test(String(f.payload.text)),
      { from },
    );
    expect(said.payload.text).toBe(
      'This channel now continues Hermes session `record-tool`; its 2 earlier messages are above. Its next replies see that conversation.',
    );
    // Sent like any other message (outboxed, so a device away gets them by sync), with Hermes's times.
    const imported = c
      .ofType('message', from)
      .filter((f) => String(f.payload.message_id).startsWith('msg_hermes_'))
      .map((f) => f.payload.text);
    expect(imported).toEqual(['Please run a command [echo]', 'The command printed: iris-tool-ok']);
    const lane = () => gatewayFixture.gw.gateway.store.messages('web:default').map((m) => m.text);
    expect(lane()).toEqual([
      'Please run a command [echo]',
      'The command printed: iris-tool-ok',
      '/attach record-tool',
      said.payload.text,
    ]);
    const page = await c.request('history', { limit: 50 });
    expect(page.payload.messages.map((m: { text: string }) => m.text).slice(0, 2)).toEqual(imported);
    // The reply's tool, read from Hermes's session (its call and result rows), on the wire and in history.
    const tool = { index: 0, name: 'terminal', ok: true, preview: 'echo iris-tool-ok' };
    const reply = c.ofType('message', from).find((f) => f.payload.text === 'The command printed: iris-tool-ok')!;
    expect(reply.payload.tools).toEqual([tool]);
    expect(page.payload.messages[1].tools).toEqual([tool]);

    // Twice: nothing is imported again.
    await c.request('message.send', { text: '/attach record-tool', client_id: 'c-attach-2' }, {});
    await c.waitFor((f) => f.type === 'message' && /already continues/.test(String(f.payload.text)), { from });
    expect(lane().filter((t) => t === 'The command printed: iris-tool-ok')).toHaveLength(1);

    // The lane's next run is in that session, with the imported conversation as its history.
    await c.chat('Hello Hermes, how are you?');
    const body = runCalls()[0].body as { session_id: string; conversation_history: Array<{ content: string }> };
    expect(body.session_id).toBe('record-tool');
    // Only the conversation: not the /attach commands nor the bridge's answers to them.
    expect(body.conversation_history.map((m) => m.content)).toEqual(imported);
  });

  it('importing again after a restart finds the messages stored (stable ids), and another channel cannot take the session', async () => {
    const dataDir = gatewayFixture.dataDir;
    hermes.seedSession(earlier());
    await gateway({ dataDir });
    const c = await device();
    await c.request('message.send', { text: '/attach record-tool', client_id: 'c-a1' }, {});
    await c.waitFor((f) => f.type === 'message' && /now continues/.test(String(f.payload.text)));
    await c.close();
    await gatewayFixture.stop();
    await gateway({ dataDir });
    const count = () =>
      gatewayFixture.gw.gateway.store.messages('web:default').filter((m) => m.message_id.startsWith('msg_hermes_'))
        .length;
    expect(count()).toBe(2);
    const d = await device();
    const from = d.mark();
    await d.request('message.send', { text: '/attach record-tool', client_id: 'c-a2' }, { chat_id: 'web:demo' });
    const refused = await d.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(refused.payload.text).toBe(
      'Hermes session `record-tool` already continues in another channel (web:default).',
    );
    expect(
      gatewayFixture.gw.gateway.store.messages('web:demo').some((m) => m.message_id.startsWith('msg_hermes_')),
    ).toBe(false);
    expect(count()).toBe(2);
  });

  it('/attach alone lists Hermes’s sessions; an unknown id and a Hermes without the session API are answered in words', async () => {
    hermes.seedSession(earlier());
    await gateway();
    const c = await device();
    const reply = async (text: string) => {
      const from = c.mark();
      await c.request('message.send', { text, client_id: `c-${text}` }, {});
      const r = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
      return String(r.payload.text);
    };
    expect(await reply('/attach')).toMatch(
      /^Hermes's recent sessions[^\n]*\n\n- `record-tool`, 4 messages, from api_server$/,
    );
    expect(await reply('/attach no-such-session')).toBe(
      'Hermes has no session `no-such-session` (see `/attach` for the list).',
    );
    hermes.configure({ noSessions: true });
    expect(await reply('/attach record-tool')).toBe(
      'Hermes 0.19.0 has no session API (`/api/sessions`), so its earlier conversations cannot be imported.',
    );
    expect(
      gatewayFixture.gw.gateway.store.messages('web:default').some((m) => m.message_id.startsWith('msg_hermes_')),
    ).toBe(false);
  });
});
