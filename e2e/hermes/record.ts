// Records what a real Hermes sends for each scripted scenario, as fixtures for the bridge's unit
// tests (server/gateway/hermes/fixtures/). Run: node --import tsx e2e/hermes/record.ts
// The raw SSE bytes are kept exactly; the run status and session answers are kept as Hermes sent them.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureHermes, HERMES_VERSION, startHermes } from './hermes';
import { startScriptedModel } from './model';

const OUT = resolve(import.meta.dirname, '../../server/gateway/hermes/fixtures');

interface Scenario {
  name: string;
  input: string;
  /** What the recorder does when an event arrives (answer an approval, stop the run). */
  onEvent?: (
    event: Record<string, unknown>,
    act: (path: string, body: unknown) => Promise<void>,
  ) => Promise<void> | void;
}

async function main(): Promise<void> {
  const { skip } = ensureHermes();
  if (skip) throw new Error(skip);
  const model = await startScriptedModel();
  const hermes = await startHermes({ modelBaseUrl: model.baseUrl });
  const auth = { Authorization: `Bearer ${hermes.key}` };
  const victims = mkdtempSync(join(tmpdir(), 'iris-record-'));
  mkdirSync(join(victims, 'once'));
  mkdirSync(join(victims, 'deny'));
  let stopped = false;
  const scenarios: Scenario[] = [
    { name: 'text', input: 'Hello Hermes, how are you?' },
    { name: 'tool', input: 'Please run a command [echo]' },
    {
      name: 'approval-once',
      input: `Clean up [approve ${join(victims, 'once')}]`,
      onEvent: (e, act) => (e.event === 'approval.request' ? act('approval', { choice: 'once' }) : undefined),
    },
    {
      name: 'approval-deny',
      input: `Clean up [approve ${join(victims, 'deny')}]`,
      onEvent: (e, act) => (e.event === 'approval.request' ? act('approval', { choice: 'deny' }) : undefined),
    },
    {
      name: 'stopped',
      input: 'Tell me a long story [slow]',
      onEvent: (e, act) => {
        if (e.event === 'message.delta' && !stopped && String(e.delta).includes('line 5.')) {
          stopped = true;
          return act('stop', {});
        }
      },
    },
    { name: 'failed', input: 'Break please [fail]' },
  ];
  mkdirSync(OUT, { recursive: true });
  try {
    for (const s of scenarios) {
      const session_id = `record-${s.name}`;
      const request = { input: s.input, session_id };
      const started = await fetch(`${hermes.url}/v1/runs`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
      });
      const startAnswer = (await started.json()) as { run_id: string };
      const runId = startAnswer.run_id;
      const act = async (path: string, body: unknown) => {
        await fetch(`${hermes.url}/v1/runs/${runId}/${path}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      };
      const res = await fetch(`${hermes.url}/v1/runs/${runId}/events`, { headers: auth });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let sse = '';
      let pending = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        sse += text;
        pending += text;
        let cut: number;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) await s.onEvent?.(JSON.parse(data) as Record<string, unknown>, act);
        }
      }
      const get = async (path: string) => (await fetch(`${hermes.url}${path}`, { headers: auth })).json();
      const fixture = {
        hermes_version: HERMES_VERSION,
        recorded_by: 'e2e/hermes/record.ts against hermes-agent from PyPI and the scripted model (e2e/hermes/model.ts)',
        request,
        start: { status: started.status, body: startAnswer },
        sse,
        run: await get(`/v1/runs/${runId}`),
        session: await get(`/api/sessions/${session_id}`),
        session_messages: await get(`/api/sessions/${session_id}/messages`),
      };
      writeFileSync(join(OUT, `${s.name}.json`), JSON.stringify(fixture, null, 2) + '\n');
      process.stdout.write(`recorded ${s.name} (${sse.length} bytes of SSE)\n`);
    }
    if (hermes.trap.attempts.length)
      throw new Error(`Hermes tried outside network calls: ${hermes.trap.attempts.join(', ')}`);
  } finally {
    await hermes.close();
    await model.close();
  }
}

await main();
