// One assistant reply driven by a Hermes run: POST /v1/runs, then its SSE events mapped to the
// protocol's streaming frames (spec README §7), outboxed by the hub so a device that is away gets
// the whole reply by sync. When the event stream drops, or after our own restart, the run is
// followed by polling GET /v1/runs/{id} (hermes-agent 0.19.0 lets one subscriber read a run's events
// and drops them once it disconnects) and closed with Hermes's final output.
import type { HistoryTool } from '../../../src/protocol';
import type { AgentHost } from '../agent';
import type { LaneAddress } from '../directory';
import { at, endedTool } from '../frames';
import type { Peer } from '../peer';
import { HermesError, type HermesClient, type RunStatus, type SessionMessage } from './client';
import type { HermesEvent } from './events';
import { toolsOfLastTurn } from './history';
import type { HermesState, InflightRun } from './state';

export interface TurnHooks {
  /** Hermes asks for approval of a command in this run. */
  approval(turn: HermesTurn, ev: Extract<HermesEvent, { event: 'approval.request' }>): void;
  /** Hermes says an approval of this run was answered (here or by another client). */
  approvalAnswered(turn: HermesTurn, choice: string): void;
  /** Hermes could not be reached or refused us: the agent re-checks its health. */
  trouble(err: HermesError): void;
  /** The reply is final (stored, message.stop sent). `stopReply` is the agent.stop to answer. */
  ended(turn: HermesTurn, stopReply?: { peer: Peer; id?: number }): void;
  log(line: string): void;
}

export interface TurnDeps {
  ctx: AgentHost;
  client: HermesClient;
  state: HermesState;
  hooks: TurnHooks;
  /** Model name shown on a completed reply when Hermes does not say which one ran. */
  fallbackModel: () => string | undefined;
  pollIntervalMs: number;
  /** How long a run is polled while Hermes does not answer before the reply is closed with what it has. */
  maxPollMs: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

export class HermesTurn {
  private text: string;
  private readonly notes: string[] = [];
  /** The model's reasoning in this run's steps, as Hermes wrote them to the session. */
  private thoughts: string[] = [];
  private readonly openTools: Array<{ index: number; name: string; preview?: string }> = [];
  /** The run's tool calls as they ended: kept with the reply for history (the `tools` extension). */
  private readonly tools: HistoryTool[] = [];
  private nextTool = 0;
  /** Followed after our restart: the run's events before it are gone. */
  private reattached = false;
  /** When this gateway opened the bubble (not known after a restart), and how long until its first text. */
  private startedAt: number | undefined;
  private thoughtMs: number | undefined;
  private done = false;
  private stopReply: { peer: Peer; id?: number } | undefined;
  private stopWanted = false;
  private readonly abort = new AbortController();
  private detached = false;
  private resolveOver!: () => void;
  /** Settles when the reply is final, or the turn was detached. */
  readonly over = new Promise<void>((resolve) => (this.resolveOver = resolve));

  constructor(
    private readonly deps: TurnDeps,
    readonly addr: LaneAddress,
    readonly record: InflightRun,
  ) {
    this.text = record.text;
  }

  get messageId(): string {
    return this.record.message_id;
  }

  get runId(): string | undefined {
    return this.record.run_id;
  }

  get finished(): boolean {
    return this.done;
  }

  /** Open the bubble and start the run. */
  async begin(body: Record<string, unknown>, idempotencyKey: string): Promise<void> {
    const { ctx, state, client } = this.deps;
    this.startedAt = Date.now();
    ctx.hub.emit({ v: 1, type: 'agent.busy', ...at(this.addr), payload: { reason: 'processing' } });
    ctx.hub.emit({ v: 1, type: 'typing', ...at(this.addr), payload: { on: true } });
    // Durable before the bubble opens, so a crash can reattach or close it after the restart.
    state.runs.set(this.messageId, this.record);
    state.save('self');
    ctx.hub.emit({
      v: 1,
      type: 'message.start',
      ...at(this.addr),
      payload: { message_id: this.messageId, role: 'assistant' },
    });
    let runId: string;
    try {
      runId = await client.startRun(body, idempotencyKey);
    } catch (err) {
      const e = err instanceof HermesError ? err : new HermesError('http', String(err));
      this.deps.hooks.trouble(e);
      return this.finish(`⚠️ ${e.message} Your message is kept here; send it again when Hermes is back.`);
    }
    if (this.detached) return;
    this.record.run_id = runId;
    state.save('self');
    if (this.stopWanted) void this.sendStop();
    await this.follow();
  }

  /** After our restart: the run may still be going in Hermes. Its events are gone; its status is not. */
  async reattach(): Promise<void> {
    this.reattached = true;
    if (!this.record.run_id)
      return this.finish(this.withNote('_(This reply was interrupted when the gateway restarted.)_'));
    await this.poll();
  }

  /** agent.stop: ask Hermes to stop; the reply ends when Hermes says it is cancelled. */
  stop(reply: { peer: Peer; id?: number }): void {
    this.stopReply = reply;
    this.stopWanted = true;
    if (this.record.run_id) void this.sendStop();
  }

  /** The gateway is closing: let go of the stream, keep the record so the next start reattaches. */
  detach(): void {
    this.detached = true;
    this.abort.abort();
    this.resolveOver();
  }

  private async sendStop(): Promise<void> {
    try {
      await this.deps.client.stop(this.record.run_id!);
    } catch (err) {
      // Already over (404) is fine: the stream or the poll brings the end.
      if (!(err instanceof HermesError && err.status === 404))
        this.deps.hooks.log(`hermes: stop failed: ${(err as Error).message}`);
    }
  }

  private async follow(): Promise<void> {
    try {
      await this.deps.client.events(this.record.run_id!, (ev) => this.apply(ev), this.abort.signal);
    } catch (err) {
      if (this.detached || this.done) return;
      this.deps.hooks.log(`hermes: event stream of ${this.record.run_id} broke: ${(err as Error).message}`);
    }
    if (this.done || this.detached) return;
    // The stream ended without a final event: follow the run by its status instead.
    await this.poll();
  }

  private async poll(): Promise<void> {
    const started = Date.now();
    while (!this.done && !this.detached) {
      let status: RunStatus | undefined;
      try {
        status = await this.deps.client.getRun(this.record.run_id!);
      } catch (err) {
        if (err instanceof HermesError) this.deps.hooks.trouble(err);
        if (Date.now() - started > this.deps.maxPollMs)
          return this.finish(this.withNote('_(Hermes stopped answering; this is the reply so far.)_'));
        await this.sleep();
        continue;
      }
      if (!status)
        return this.finish(
          this.withNote('_(Hermes no longer knows this run (it may have restarted); this is the reply so far.)_'),
        );
      if (TERMINAL.has(status.status)) return this.fromStatus(status);
      await this.sleep();
    }
  }

  private fromStatus(status: RunStatus): void {
    switch (status.status) {
      case 'completed':
        return void this.complete(status.output ?? this.text, status.usage?.output_tokens);
      case 'failed':
        return this.finish(this.failedText(status.error ?? 'the run failed'), { ended: true });
      case 'cancelled':
        return this.finish(this.text || '_(Stopped before Hermes wrote anything.)_', { stopped: true, ended: true });
      default:
        return this.finish(this.withNote(`_(Hermes says this run was ${status.status}; this is the reply so far.)_`), {
          ended: true,
        });
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, this.deps.pollIntervalMs);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** One event from Hermes, mapped (spec README §7). */
  apply(ev: HermesEvent): void {
    if (this.done) return;
    const { hub } = this.deps.ctx;
    const scope = at(this.addr);
    switch (ev.event) {
      case 'message.delta': {
        if (ev.delta === '') return;
        if (!this.text && this.startedAt !== undefined) this.thoughtMs = Date.now() - this.startedAt;
        this.text += ev.delta;
        this.record.text = this.text;
        this.deps.state.save();
        return this.update();
      }
      case 'reasoning.available':
        // 0.19.0 sends the step's visible text here (already streamed as deltas); keep only what is new,
        // and show it at once (message.update's optional reasoning, README "Reasoning while it streams").
        if (ev.text && !flat(this.text).includes(flat(ev.text)) && !this.notes.includes(ev.text)) {
          this.notes.push(ev.text);
          this.update();
        }
        return;
      case 'tool.started': {
        const index = this.nextTool++;
        this.openTools.push({ index, name: ev.tool, ...(ev.preview ? { preview: ev.preview } : {}) });
        hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'tool' } });
        hub.emit({ v: 1, type: 'tool.start', ...scope, payload: { index, name: ev.tool, preview: ev.preview } });
        // 0.19.0 writes the step that asked for the tool (with the model's reasoning) to the session
        // before the tool runs: read it now, so the reasoning shows while the tool (or an approval) waits.
        void this.readThoughts();
        return;
      }
      case 'tool.completed': {
        // Hermes names the tool but not the call: the oldest open call of that name is the one.
        const at_ = this.openTools.findIndex((t) => t.name === ev.tool);
        const tool = this.openTools.splice(at_ >= 0 ? at_ : 0, 1)[0] ?? { index: this.nextTool++, name: ev.tool };
        hub.emit({
          v: 1,
          type: 'tool.end',
          ...scope,
          payload: {
            index: tool.index,
            name: tool.name,
            ok: !ev.error,
            ...(ev.duration !== undefined ? { duration: ev.duration } : {}),
            ...(ev.error ? { output_preview: 'failed' } : {}),
          },
        });
        this.tools.push(endedTool(tool, !ev.error, ev.duration));
        hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'processing' } });
        return;
      }
      case 'approval.request':
        return this.deps.hooks.approval(this, ev);
      case 'approval.responded':
        return this.deps.hooks.approvalAnswered(this, ev.choice);
      case 'run.completed':
        return void this.complete(ev.output || this.text, ev.usage?.output_tokens);
      case 'run.failed':
        return this.finish(this.failedText(ev.error));
      case 'run.cancelled':
        return this.finish(this.text || '_(Stopped before Hermes wrote anything.)_', { stopped: true });
      case 'unknown':
        return; // a newer Hermes: an event this bridge does not map
      case 'malformed':
        this.deps.hooks.log(
          `hermes: ignored a malformed event of run ${this.record.run_id}: ${JSON.stringify(ev.raw.slice(0, 80))}`,
        );
        return;
    }
  }

  private failedText(error: string): string {
    return this.withNote(`⚠️ Hermes could not finish this reply: ${error}`);
  }

  private withNote(note: string): string {
    return this.text ? `${this.text}\n\n${note}` : note;
  }

  /** The reasoning so far: the model's, as Hermes kept it in the session, then the bridge's notes. */
  private get reasoning(): string {
    return [...this.thoughts, ...this.notes].join('\n\n');
  }

  /** message.update with the text so far and, once there is some, the reasoning so far. */
  private update(): void {
    const reasoning = this.reasoning;
    this.deps.ctx.hub.emit({
      v: 1,
      type: 'message.update',
      ...at(this.addr),
      payload: { message_id: this.messageId, text: this.text, ...(reasoning ? { reasoning } : {}) },
    });
  }

  /** Mid-run: the reasoning of the steps Hermes has written to the session, shown when it is new. */
  private async readThoughts(): Promise<void> {
    let messages: SessionMessage[];
    try {
      messages = await this.deps.client.sessionMessages(this.record.session_id);
    } catch (err) {
      this.deps.hooks.log(`hermes: could not read the session of ${this.record.run_id}: ${(err as Error).message}`);
      return;
    }
    const thoughts = thoughtsOfLastTurn(messages);
    if (this.done || this.detached || thoughts.join('\n\n') === this.thoughts.join('\n\n')) return;
    // Only ever grows: a read that raced an earlier one cannot take reasoning back.
    if (thoughts.length < this.thoughts.length) return;
    this.thoughts = thoughts;
    this.update();
  }

  /** A completed run: Hermes keeps the model's reasoning and the model name in the session. */
  private async complete(output: string, tokens: number | undefined): Promise<void> {
    if (this.done) return;
    this.done = true;
    const model = await this.readSessionEnd(true);
    this.close(output, this.reasoning, model ?? this.deps.fallbackModel(), tokens);
  }

  /**
   * Ends the reply with `finalText`; `stopped`: Hermes cancelled the run (agent.stop here, or its own);
   * `ended`: Hermes says the run is over, so its session holds the steps it ran.
   */
  private finish(finalText: string, end: { stopped?: boolean; ended?: boolean } = {}): void {
    if (this.done) return;
    this.done = true;
    const close = () => this.close(finalText, this.reasoning, undefined, undefined, end.stopped === true);
    // Followed across our restart, a run that failed or was cancelled still ran its steps, and their
    // events went with the old connection: read them from the session, as for a completed run.
    if (this.reattached && end.ended) void this.readSessionEnd(false).then(close);
    else close();
  }

  /**
   * The run's end as Hermes kept it in the session: the reasoning of its steps and, for a run followed
   * across our restart, its tools (without their durations), so the reply's history lists them all.
   * Returns the session's model when `withModel`.
   */
  private async readSessionEnd(withModel: boolean): Promise<string | undefined> {
    const { client } = this.deps;
    try {
      const [messages, model] = await Promise.all([
        client.sessionMessages(this.record.session_id),
        withModel ? client.sessionModel(this.record.session_id) : undefined,
      ]);
      const thoughts = thoughtsOfLastTurn(messages);
      if (thoughts.length) this.thoughts = thoughts;
      if (this.reattached) this.tools.splice(0, this.tools.length, ...toolsOfLastTurn(messages));
      return model;
    } catch (err) {
      this.deps.hooks.log(`hermes: could not read the session of ${this.record.run_id}: ${(err as Error).message}`);
      return undefined;
    }
  }

  private close(
    finalText: string,
    reasoning: string,
    model: string | undefined,
    tokens: number | undefined,
    stopped = false,
  ): void {
    if (this.detached) return;
    const { ctx, state } = this.deps;
    const { store, hub } = ctx;
    const scope = at(this.addr);
    for (const tool of this.openTools.splice(0)) {
      hub.emit({
        v: 1,
        type: 'tool.end',
        ...scope,
        payload: { index: tool.index, name: tool.name, ok: false, output_preview: 'not finished' },
      });
      this.tools.push(endedTool(tool, false));
    }
    // Only a reply the model wrote names it; a failure or a note from the bridge does not.
    const shownModel = model;
    const stored = store.conversations.append({
      lane: this.addr.lane,
      message_id: this.messageId,
      role: 'assistant',
      text: finalText,
      ...(reasoning ? { reasoning } : {}),
      ...(shownModel ? { model: shownModel } : {}),
      ...(tokens !== undefined ? { tokens } : {}),
      ...(stopped ? { stopped } : {}),
      ...(this.tools.length ? { tools: this.tools } : {}),
      ...(reasoning && this.thoughtMs !== undefined ? { thought_ms: this.thoughtMs } : {}),
    });
    state.runs.delete(this.messageId);
    state.save();
    store.flush();
    hub.emit({
      v: 1,
      type: 'message.stop',
      ...scope,
      payload: {
        message_id: this.messageId,
        final_text: finalText,
        ...(reasoning ? { reasoning } : {}),
        ...(shownModel ? { model: shownModel } : {}),
        ...(tokens !== undefined ? { tokens } : {}),
        ts: stored.ts!,
        ...(stopped ? { stopped } : {}),
      },
    });
    ctx.push.notify({
      kind: 'message',
      title: 'Hermes',
      body: flat(finalText).slice(0, 140) || 'New reply',
      lane: this.addr.lane,
      chat_id: this.addr.chat_id,
      ...(this.addr.thread_id ? { thread_id: this.addr.thread_id } : {}),
      message_id: this.messageId,
      ts: stored.ts!,
    });
    this.abort.abort();
    this.deps.hooks.ended(this, this.stopReply);
    this.resolveOver();
  }
}

/** The reasoning of the assistant steps after the session's newest user message (this run's). */
function thoughtsOfLastTurn(messages: SessionMessage[]): string[] {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  return messages
    .slice(lastUser + 1)
    .filter((m) => m.role === 'assistant' && m.reasoning?.trim())
    .map((m) => m.reasoning!.trim());
}
