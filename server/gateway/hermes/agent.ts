// The agent behind the gateway is a stock Hermes (hermes-agent) reached through its API server. Each
// lane is one Hermes session; each user message is one run, one at a time per lane; the gateway
// consumes the run's events itself, so a reply goes on with every browser closed. Hermes's health is
// checked at start and every few seconds: while it is unreachable, refuses the key or is too old, the
// app gets status{degraded} with the reason, and a message sent then is answered in words.
import { randomUUID } from 'node:crypto';
import type {
  ClientFrameOf,
  CommandInfo,
  CommandsCatalogFrame,
  CommandsCompleteFrame,
  ModelProvider,
  Role,
} from '../../../src/protocol';
import type { Agent, AgentDescription, AgentHost } from '../agent';
import { statusFrame } from '../agentstatus';
import type { StoredMessage } from '../conversations';
import type { LaneAddress } from '../directory';
import { at, messageFrame } from '../frames';
import type { Requester } from '../peer';
import { HermesClient, HermesError } from './client';
import { HermesState, type PendingApproval } from './state';
import { HermesTurn, type TurnHooks } from './turn';

export interface HermesAgentOptions {
  /** The API server, e.g. http://127.0.0.1:8642 */
  url: string;
  /** API_SERVER_KEY of that Hermes; never logged. */
  key?: string;
  /** How often Hermes's health is checked (default 5 s). */
  probeIntervalMs?: number;
  /** How often a run whose event stream dropped is polled (default 1 s). */
  pollIntervalMs?: number;
}

/** The API server features this bridge needs (`/v1/capabilities` of hermes-agent 0.19.0). */
const NEEDED_FEATURES = ['run_submission', 'run_status', 'run_events_sse', 'run_stop', 'run_approval_response'];
const MAX_HISTORY = 40;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const PROVIDER_ID = 'hermes';

const COMMANDS: readonly CommandInfo[] = [
  {
    name: 'model',
    description: "Choose the model for this channel's next replies (from Hermes's /v1/models)",
    args_hint: '',
    category: 'Hermes',
  },
  { name: 'help', description: 'What works with this Hermes', args_hint: '', category: 'Hermes' },
];

type Job = (done: () => void) => void;

export class HermesAgent implements Agent {
  private ctxRef: AgentHost | undefined;
  private stateRef: HermesState | undefined;
  readonly client: HermesClient;
  private description: AgentDescription;
  private readonly lanes = new Map<string, { running: boolean; active?: HermesTurn; jobs: Job[] }>();
  private readonly turns = new Set<HermesTurn>();
  private probeTimer: NodeJS.Timeout | undefined;
  private probing: Promise<AgentDescription> | undefined;
  private models: string[] = [];
  private closed = false;
  private readonly probeIntervalMs: number;
  private readonly pollIntervalMs: number;

  constructor(opts: HermesAgentOptions) {
    this.client = new HermesClient({ url: opts.url, key: opts.key });
    this.probeIntervalMs = opts.probeIntervalMs ?? 5000;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
    this.description = { kind: 'hermes', name: 'Hermes', url: this.client.url, problem: 'Not checked yet.' };
  }

  private get ctx(): AgentHost {
    if (!this.ctxRef) throw new Error('HermesAgent used before attach()');
    return this.ctxRef;
  }

  private get state(): HermesState {
    if (!this.stateRef) throw new Error('HermesAgent used before attach()');
    return this.stateRef;
  }

  attach(ctx: AgentHost): void {
    this.ctxRef = ctx;
    this.stateRef = new HermesState(ctx.store.persistence);
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.probeTimer.unref();
  }

  describe(): AgentDescription {
    return { ...this.description };
  }

  /**
   * Ask Hermes who it is and whether it can serve us: /health (version), /v1/capabilities (the run
   * endpoints), /v1/models (the key works). The app hears about every change of the answer.
   */
  probe(): Promise<AgentDescription> {
    this.probing ??= this.check().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async check(): Promise<AgentDescription> {
    const base: AgentDescription = { kind: 'hermes', name: 'Hermes', url: this.client.url };
    let next: AgentDescription;
    try {
      const { version } = await this.client.health();
      const named = { ...base, name: version ? `Hermes ${version}` : 'Hermes', ...(version ? { version } : {}) };
      const features = await this.client.capabilities();
      const missing = NEEDED_FEATURES.filter((f) => features[f] !== true);
      const models = await this.client.models();
      this.models = models;
      const model = this.description.model ?? models[0];
      next = { ...named, ...(model ? { model } : {}) };
      if (missing.length)
        next.problem = `This Hermes lacks ${missing.join(', ')}; Iris Web needs hermes-agent 0.19.0 or newer.`;
    } catch (err) {
      next = {
        ...base,
        ...(this.description.version ? { name: this.description.name, version: this.description.version } : {}),
        problem: err instanceof Error ? err.message : String(err),
      };
    }
    if (this.description.model && !next.model) next.model = this.description.model;
    this.update(next);
    return this.describe();
  }

  private update(next: AgentDescription): void {
    const changed = JSON.stringify(next) !== JSON.stringify(this.description);
    this.description = next;
    if (changed && this.ctxRef && !this.closed) {
      this.ctx.log(`gateway: agent ${next.name}${next.problem ? ` is unavailable: ${next.problem}` : ' is available'}`);
      this.ctx.hub.live(statusFrame(this.describe()));
    }
  }

  private readonly hooks: TurnHooks = {
    approval: (turn, ev) => this.postApproval(turn, ev),
    approvalAnswered: (turn) => this.approvalAnswered(turn),
    trouble: (err) => {
      if (err.problem !== 'http' && err.problem !== 'protocol') void this.probe();
    },
    ended: (turn, stopReply) => {
      this.turns.delete(turn);
      this.closeApprovals(turn);
      const { hub } = this.ctx;
      hub.emit({ v: 1, type: 'typing', ...at(turn.addr), payload: { on: false } });
      hub.emit({ v: 1, type: 'agent.idle', ...at(turn.addr), payload: {} }, stopReply ? { reply: stopReply } : {});
      this.noteModel(turn);
    },
    log: (line) => this.ctx.log(line),
  };

  private noteModel(turn: HermesTurn): void {
    const stored = this.ctx.store.conversations.get(turn.messageId);
    if (stored?.model && stored.model !== this.description.model && !this.description.problem)
      this.update({ ...this.description, model: stored.model });
  }

  private newTurn(addr: LaneAddress, messageId: string, sessionId: string): HermesTurn {
    const turn = new HermesTurn(
      {
        ctx: this.ctx,
        client: this.client,
        state: this.state,
        hooks: this.hooks,
        fallbackModel: () => this.description.model,
        pollIntervalMs: this.pollIntervalMs,
      },
      addr,
      { message_id: messageId, lane: addr.lane, session_id: sessionId, text: '' },
    );
    this.turns.add(turn);
    return turn;
  }

  /** Runs a previous process left open: follow them to their end by status (their events are gone). */
  recover(): void {
    const { store } = this.ctx;
    for (const record of [...this.state.runs.values()]) {
      const addr = store.channels.address(record.lane);
      if (!addr || store.conversations.get(record.message_id)) {
        this.state.runs.delete(record.message_id);
        continue;
      }
      const turn = new HermesTurn(
        {
          ctx: this.ctx,
          client: this.client,
          state: this.state,
          hooks: this.hooks,
          fallbackModel: () => this.description.model,
          pollIntervalMs: this.pollIntervalMs,
        },
        addr,
        record,
      );
      this.turns.add(turn);
      this.enqueue(addr.lane, (done) => {
        this.activate(addr.lane, turn);
        void turn
          .reattach()
          .then(() => turn.over)
          .finally(done);
      });
    }
    this.state.save('self');
    void this.probe();
  }

  laneFor(addr: LaneAddress): LaneAddress {
    return addr;
  }

  onUserMessage(addr: LaneAddress, msg: StoredMessage, senderDevice: string): void {
    this.enqueue(addr.lane, (done) => {
      this.ctx.hub.emit(
        { v: 1, type: 'read.receipt', ...at(addr), payload: { message_id: msg.message_id } },
        { only: [senderDevice] },
      );
      const command = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(msg.text.trim());
      if (command && !msg.media?.length) {
        const name = command[1].toLowerCase();
        if (name === 'model') {
          void this.postModelPicker(addr).finally(done);
          return;
        }
        if (name === 'help') {
          this.say(addr, 'assistant', helpText(this.describe()));
          return done();
        }
        this.say(
          addr,
          'assistant',
          `\`/${name}\` is not available here: ${this.description.name}'s API server runs no slash commands, so it was not sent to Hermes. Iris Web offers \`/model\` and \`/help\`.`,
        );
        return done();
      }
      void this.runMessage(addr, msg).finally(done);
    });
  }

  private async runMessage(addr: LaneAddress, msg: StoredMessage): Promise<void> {
    const { store } = this.ctx;
    const images: Array<{ type: 'image_url'; image_url: { url: string } }> = [];
    const refused: string[] = [];
    for (const ref of msg.media ?? []) {
      const bytes =
        IMAGE_MIMES.has(ref.mime) && ref.size <= MAX_IMAGE_BYTES ? store.media.bytes(ref.media_id) : undefined;
      if (bytes)
        images.push({ type: 'image_url', image_url: { url: `data:${ref.mime};base64,${bytes.toString('base64')}` } });
      else refused.push(ref.filename || ref.mime);
    }
    if (refused.length) {
      const sent = msg.text.trim() || images.length ? ' I sent Hermes the rest of your message.' : '';
      this.say(
        addr,
        'assistant',
        `This agent cannot read files of this kind: ${refused.map((n) => `**${n}**`).join(', ')} (Hermes takes text and pictures).${sent}`,
      );
      if (!msg.text.trim() && !images.length) return;
    }
    const sessionId = this.state.sessionFor(addr.lane);
    const history = store
      .messages(addr.lane)
      .filter(
        (m) => m.message_id !== msg.message_id && (m.role === 'user' || m.role === 'assistant') && m.text.trim() !== '',
      )
      .slice(-MAX_HISTORY)
      .map((m) => ({ role: m.role, content: m.text }));
    const text = msg.text.trim() || 'What is in this picture?';
    const input = images.length ? [{ role: 'user', content: [{ type: 'text', text }, ...images] }] : text;
    const model = this.state.models.get(addr.lane);
    const body: Record<string, unknown> = {
      input,
      session_id: sessionId,
      ...(history.length ? { conversation_history: history } : {}),
      ...(model ? { model } : {}),
    };
    const turn = this.newTurn(addr, store.conversations.newId(), sessionId);
    this.activate(addr.lane, turn);
    await turn.begin(body, msg.client_id ?? msg.message_id);
    await turn.over;
  }

  stop(requester: Requester, frame: ClientFrameOf<'agent.stop'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const turn = this.lanes.get(addr.lane)?.active;
    if (!turn || turn.finished)
      return requester.send({ v: 1, type: 'agent.idle', id: frame.id, ...at(addr), payload: {} });
    turn.stop({ peer: requester, id: frame.id });
  }

  steer(requester: Requester, frame: ClientFrameOf<'agent.steer'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const turn = this.lanes.get(addr.lane)?.active;
    if (!turn || turn.finished)
      return requester.error('not_found', 'No turn is in progress in this lane to steer.', frame.id);
    requester.error(
      'unsupported',
      `${this.description.name} cannot be steered: its API server has no steer endpoint. Stop the reply and send a new message instead.`,
      frame.id,
    );
  }

  select(requester: Requester, frame: ClientFrameOf<'picker.select'>): void {
    const { store, hub } = this.ctx;
    const pickerId = frame.payload.picker_id;
    const picker = typeof pickerId === 'string' ? this.state.pickers.get(pickerId) : undefined;
    if (!picker)
      return requester.error('not_found', 'That question was already answered or no longer exists.', frame.id);
    const value = typeof frame.payload.value === 'string' ? frame.payload.value.trim() : '';
    const addr = store.channels.address(picker.lane) ?? { lane: picker.lane, chat_id: picker.lane };
    if (picker.kind === 'model') {
      const model = value.startsWith(`${PROVIDER_ID}:`) ? value.slice(PROVIDER_ID.length + 1) : '';
      if (!picker.models?.includes(model))
        return requester.error(
          'unsupported',
          'Invalid answer: value must be "hermes:<model id>" of an offered model.',
          frame.id,
        );
      this.state.pickers.delete(picker.picker_id);
      this.state.models.set(picker.lane, model);
      this.state.save('self');
      hub.emit(
        { v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } },
        { reply: { peer: requester, id: frame.id } },
      );
      this.say(addr, 'assistant', `This channel's next replies ask Hermes for the model **${model}**.`);
      hub.emit({ v: 1, type: 'agent.idle', ...at(addr), payload: {} });
      return;
    }
    if (!picker.choices?.includes(value)) {
      return requester.error(
        'unsupported',
        `Invalid answer: Hermes offers ${(picker.choices ?? []).join(', ')} for this approval.`,
        frame.id,
      );
    }
    // Answered once: a second answer (another device, a double tap) finds no picker.
    this.state.pickers.delete(picker.picker_id);
    this.state.save('self');
    this.client.approve(picker.run_id!, value).then(
      () =>
        hub.emit(
          { v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } },
          { reply: { peer: requester, id: frame.id } },
        ),
      (err: unknown) => {
        const status = err instanceof HermesError ? err.status : undefined;
        if (status === 404 || status === 409) {
          hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } });
          return requester.error(
            'not_found',
            'Hermes no longer waits for this answer (the run ended or was stopped).',
            frame.id,
          );
        }
        // Not delivered: the question stays open, so it can be answered again.
        this.state.pickers.set(picker.picker_id, picker);
        this.state.save('self');
        requester.error('internal', `Hermes did not take the answer: ${(err as Error).message}`, frame.id);
      },
    );
  }

  catalog(): CommandsCatalogFrame {
    return { v: 1, type: 'commands.catalog', payload: { commands: COMMANDS.map((c) => ({ ...c })) } };
  }

  complete(rawPrefix: unknown): CommandsCompleteFrame {
    const prefix = typeof rawPrefix === 'string' ? rawPrefix.slice(0, 100) : '';
    const bare = prefix.replace(/^\//, '').toLowerCase();
    const matches = COMMANDS.filter((c) => c.name.startsWith(bare)).map(({ name, description, args_hint }) => ({
      name,
      description,
      args_hint,
    }));
    return { v: 1, type: 'commands.complete', payload: { prefix, matches } };
  }

  close(): void {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    for (const q of this.lanes.values()) q.jobs.length = 0;
    // Runs go on in Hermes; their records stay, so the next start follows them to their end.
    for (const turn of this.turns) turn.detach();
    this.turns.clear();
    this.stateRef?.save();
  }

  private enqueue(lane: string, job: Job): void {
    let q = this.lanes.get(lane);
    if (!q) this.lanes.set(lane, (q = { running: false, jobs: [] }));
    q.jobs.push(job);
    this.pump(q);
  }

  private activate(lane: string, turn: HermesTurn): void {
    const q = this.lanes.get(lane);
    if (q) q.active = turn;
  }

  private pump(q: { running: boolean; active?: HermesTurn; jobs: Job[] }): void {
    if (q.running || this.closed) return;
    const job = q.jobs.shift();
    if (!job) return;
    q.running = true;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      q.running = false;
      q.active = undefined;
      this.pump(q);
    };
    try {
      job(done);
    } catch (err) {
      this.ctx.log(`gateway: hermes job failed: ${(err as Error).stack ?? String(err)}`);
      done();
    }
  }

  /** Hermes asks before running a command: a picker.approval, a notification, a push to devices away. */
  private postApproval(turn: HermesTurn, ev: { command: string; description: string; choices: string[] }): void {
    const { store, hub } = this.ctx;
    const addr = turn.addr;
    const picker_id = `pick_${randomUUID()}`;
    const picker: PendingApproval = {
      picker_id,
      kind: 'approval',
      lane: addr.lane,
      run_id: turn.runId,
      command: ev.command,
      choices: ev.choices,
    };
    this.state.pickers.set(picker_id, picker);
    this.state.save('self');
    const scope = at(addr);
    const description = ev.description
      ? `Hermes flags this command: ${ev.description}.`
      : 'Hermes asks before running this command.';
    const offered = ev.choices.length < 4 ? ` Hermes offers only: ${ev.choices.join(', ')}.` : '';
    hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'waiting_input' } });
    hub.emit({
      v: 1,
      type: 'picker.approval',
      ...scope,
      payload: { picker_id, command: ev.command, description: description + offered },
    });
    const ts = store.conversations.now();
    const notify = { kind: 'approval' as const, title: 'Approval needed', body: `Run ${ev.command.slice(0, 200)}?` };
    hub.emit({ v: 1, type: 'notification', ...scope, payload: { ...notify, ts } });
    this.ctx.push.notify({
      ...notify,
      lane: addr.lane,
      chat_id: addr.chat_id,
      ...(addr.thread_id ? { thread_id: addr.thread_id } : {}),
      picker_id,
      ts,
    });
  }

  /** Hermes took an answer (ours, or another client's): no device should still offer the question. */
  private approvalAnswered(turn: HermesTurn): void {
    if (this.closeApprovals(turn))
      this.ctx.hub.emit({ v: 1, type: 'agent.busy', ...at(turn.addr), payload: { reason: 'processing' } });
  }

  private closeApprovals(turn: HermesTurn): boolean {
    let closed = false;
    for (const p of [...this.state.pickers.values()]) {
      if (p.kind === 'approval' && p.run_id !== undefined && p.run_id === turn.runId) {
        this.state.pickers.delete(p.picker_id);
        closed = true;
      }
    }
    if (closed) this.state.save();
    return closed;
  }

  private async postModelPicker(addr: LaneAddress): Promise<void> {
    const { hub } = this.ctx;
    let models: string[];
    try {
      models = await this.client.models();
      this.models = models;
    } catch (err) {
      this.say(addr, 'assistant', `⚠️ Could not ask Hermes for its models: ${(err as Error).message}`);
      return;
    }
    if (!models.length) {
      this.say(addr, 'assistant', 'Hermes offers no models to choose from.');
      return;
    }
    const picker_id = `pick_${randomUUID()}`;
    this.state.pickers.set(picker_id, { picker_id, kind: 'model', lane: addr.lane, models });
    this.state.save('self');
    const providers: ModelProvider[] = [
      { id: PROVIDER_ID, label: this.description.name, models: models.map((id) => ({ id, label: id })) },
    ];
    const current = this.state.models.get(addr.lane) ?? models[0];
    hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'waiting_input' } });
    hub.emit({
      v: 1,
      type: 'picker.model',
      ...at(addr),
      payload: { picker_id, current_provider: PROVIDER_ID, current_model: current, providers },
    });
  }

  /** A final message from the bridge itself (not a Hermes run): stored, broadcast, pushed. */
  private say(addr: LaneAddress, role: Role, text: string): StoredMessage {
    const { store, hub } = this.ctx;
    const stored = store.conversations.append({ lane: addr.lane, role, text });
    store.flush();
    hub.emit(messageFrame(addr, stored));
    return stored;
  }
}

function helpText(d: AgentDescription): string {
  return [
    `You are talking to **${d.name}**${d.model ? ` (model ${d.model})` : ''} through its API server.`,
    '',
    'Works: streamed replies, tool activity, approvals of risky commands, Stop, pictures, `/model`.',
    "Not with this Hermes version: steering a running reply, clarifying questions, Hermes's own slash commands, files other than pictures.",
  ].join('\n');
}
