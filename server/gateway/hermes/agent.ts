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
  ServerFrame,
} from '../../../src/protocol';
import type { Agent, AgentDescription, AgentHost } from '../agent';
import { statusFrame } from '../agentstatus';
import type { StoredMessage } from '../conversations';
import type { LaneAddress } from '../directory';
import { catalogFrame, completeFrame } from '../commandframes';
import { at, messageFrame, waitingPickerFrames } from '../frames';
import { LaneQueues } from '../lanequeue';
import type { Requester } from '../peer';
import { earlierTextsBudget, earlierWords, filesNotice, hermesAttachments, withTexts } from './attachments';
import { HermesClient, HermesError } from './client';
import { historyFromSession } from './history';
import { HermesState, type InflightRun, type PendingApproval } from './state';
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
  /** How long such a run is polled while Hermes does not answer, before its reply is closed (default 6 h). */
  maxPollMs?: number;
}

/** The API server features this bridge needs (`/v1/capabilities` of hermes-agent 0.19.0). */
const NEEDED_FEATURES = ['run_submission', 'run_status', 'run_events_sse', 'run_stop', 'run_approval_response'];
const MAX_HISTORY = 40;
/** Hermes's API server takes a request body of 10,000,000 bytes at most (MAX_REQUEST_BYTES in 0.19.0). */
const MAX_RUN_BODY_BYTES = 9_900_000;
const PROVIDER_ID = 'hermes';
/** A slash command: answered by the bridge, never sent to Hermes. */
const COMMAND = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i;
/** Ids of the bridge's own answers (not Hermes's), so a run's history can leave them out. */
const BRIDGE_ID = 'msg_bridge_';

const COMMANDS: readonly CommandInfo[] = [
  {
    name: 'model',
    description: "Choose the model for this channel's next replies (from Hermes's /v1/models)",
    args_hint: '',
    category: 'Hermes',
  },
  {
    name: 'attach',
    description:
      "Continue one of Hermes's own sessions in this channel, its earlier messages imported (no argument: list them)",
    args_hint: '[session id]',
    category: 'Hermes',
  },
  { name: 'help', description: 'What works with this Hermes', args_hint: '', category: 'Hermes' },
];

/** hermes-agent 0.19.0's API server has no steer endpoint (upstream NousResearch/hermes-agent#54301). */
const STEERS = false;

export class HermesAgent implements Agent {
  private ctxRef: AgentHost | undefined;
  private stateRef: HermesState | undefined;
  readonly client: HermesClient;
  private description: AgentDescription;
  private readonly lanes = new LaneQueues<HermesTurn>('hermes', (line) => this.ctx.log(line));
  private readonly turns = new Set<HermesTurn>();
  private probeTimer: NodeJS.Timeout | undefined;
  private probing: Promise<AgentDescription> | undefined;
  private models: string[] = [];
  private closed = false;
  private readonly probeIntervalMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxPollMs: number;

  constructor(opts: HermesAgentOptions) {
    this.client = new HermesClient({ url: opts.url, key: opts.key });
    this.probeIntervalMs = opts.probeIntervalMs ?? 5000;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
    this.maxPollMs = opts.maxPollMs ?? 6 * 3600 * 1000;
    this.description = {
      kind: 'hermes',
      name: 'Hermes',
      url: this.client.url,
      problem: 'Not checked yet.',
      steer: STEERS,
    };
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

  /** The questions waiting for an answer, as posted, each after the busy frame that says the lane waits. */
  openPickers(): ServerFrame[] {
    return waitingPickerFrames(this.ctx.store.channels, this.state.pickers.values());
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
    const base: AgentDescription = { kind: 'hermes', name: 'Hermes', url: this.client.url, steer: STEERS };
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
    approvalAnswered: (turn, choice) => this.approvalAnswered(turn, choice),
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
    return this.addTurn(addr, { message_id: messageId, lane: addr.lane, session_id: sessionId, text: '' });
  }

  private addTurn(addr: LaneAddress, record: InflightRun): HermesTurn {
    const turn = new HermesTurn(
      {
        ctx: this.ctx,
        client: this.client,
        state: this.state,
        hooks: this.hooks,
        fallbackModel: () => this.description.model,
        pollIntervalMs: this.pollIntervalMs,
        maxPollMs: this.maxPollMs,
      },
      addr,
      record,
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
      const turn = this.addTurn(addr, record);
      this.lanes.enqueue(addr.lane, (done) => {
        this.lanes.activate(addr.lane, turn);
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
    this.lanes.enqueue(addr.lane, (done) => {
      this.ctx.hub.emit(
        { v: 1, type: 'read.receipt', ...at(addr), payload: { message_id: msg.message_id } },
        { only: [senderDevice] },
      );
      const command = COMMAND.exec(msg.text.trim());
      if (command && !msg.media?.length) {
        const name = command[1].toLowerCase();
        if (name === 'model') {
          void this.postModelPicker(addr).finally(done);
          return;
        }
        if (name === 'attach') {
          void this.attachSession(addr, (command[2] ?? '').trim()).finally(done);
          return;
        }
        if (name === 'help') {
          this.say(addr, 'assistant', helpText(this.describe()));
          return done();
        }
        this.say(
          addr,
          'assistant',
          `\`/${name}\` is not available here: ${this.description.name}'s API server runs no slash commands, so it was not sent to Hermes. Iris Web offers \`/model\`, \`/attach\` and \`/help\`.`,
        );
        return done();
      }
      void this.runMessage(addr, msg).finally(done);
    });
  }

  private async runMessage(addr: LaneAddress, msg: StoredMessage): Promise<void> {
    const { store } = this.ctx;
    const bytesOf = (mediaId: string) => store.media.bytes(mediaId);
    const files = hermesAttachments(msg.media ?? [], bytesOf);
    const { images } = files;
    const words = withTexts(msg.text, files.texts);
    const notice = filesNotice(files, words !== '' || images.length > 0);
    if (notice) this.say(addr, 'assistant', notice);
    if (words === '' && !images.length) return;
    const sessionId = this.state.sessionFor(addr.lane);
    const budget = earlierTextsBudget();
    // The lane's words with Hermes (a text file's as it was sent with them): not the commands the bridge
    // answered itself, nor its answers.
    const history = store
      .messages(addr.lane)
      .filter(
        (m) =>
          m.message_id !== msg.message_id &&
          (m.role === 'user' || m.role === 'assistant') &&
          (m.text.trim() !== '' || !!m.media?.length) &&
          !m.message_id.startsWith(BRIDGE_ID) &&
          !(m.role === 'user' && !m.media?.length && COMMAND.test(m.text.trim())),
      )
      .slice(-MAX_HISTORY)
      // Newest first, so the budget for earlier files' words goes to the most recent.
      .reverse()
      .map((m) => ({
        role: m.role,
        content: m.role === 'user' && m.media?.length ? earlierWords(m.text, m.media, bytesOf, budget) : m.text,
      }))
      .reverse()
      .filter((m) => m.content.trim() !== '');
    const text = words || 'What is in this picture?';
    const input = images.length ? [{ role: 'user', content: [{ type: 'text', text }, ...images] }] : text;
    const model = this.state.models.get(addr.lane);
    // Hermes's API server refuses a body over 10 MB: the oldest of the history goes first, never the message.
    const bodyWith = (earlier: typeof history): Record<string, unknown> => ({
      input,
      session_id: sessionId,
      ...(earlier.length ? { conversation_history: earlier } : {}),
      ...(model ? { model } : {}),
    });
    let size = Buffer.byteLength(JSON.stringify(bodyWith(history)));
    while (history.length && size > MAX_RUN_BODY_BYTES) size -= Buffer.byteLength(JSON.stringify(history.shift())) + 1;
    const body = bodyWith(history);
    const turn = this.newTurn(addr, store.conversations.newId(), sessionId);
    this.lanes.activate(addr.lane, turn);
    await turn.begin(body, msg.client_id ?? msg.message_id);
    await turn.over;
  }

  stop(requester: Requester, frame: ClientFrameOf<'agent.stop'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const turn = this.lanes.active(addr.lane);
    if (!turn || turn.finished)
      return requester.send({ v: 1, type: 'agent.idle', id: frame.id, ...at(addr), payload: {} });
    turn.stop({ peer: requester, id: frame.id });
  }

  steer(requester: Requester, frame: ClientFrameOf<'agent.steer'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const turn = this.lanes.active(addr.lane);
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
    // Every device's agent.busy says which answer the question took (the `answered` extension).
    const answered = (taken: string) => ({ picker_id: picker.picker_id, value: taken });
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
        { v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing', answered: answered(value) } },
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
          { v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing', answered: answered(value) } },
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
    return catalogFrame(COMMANDS);
  }

  complete(rawPrefix: unknown): CommandsCompleteFrame {
    return completeFrame(COMMANDS, rawPrefix);
  }

  close(): void {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.lanes.close(); // running turns are detached below, not stopped
    // Runs go on in Hermes; their records stay, so the next start follows them to their end.
    for (const turn of this.turns) turn.detach();
    this.turns.clear();
    this.stateRef?.save();
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
    const scope = at(addr);
    const description = ev.description
      ? `Hermes flags this command: ${ev.description}.`
      : 'Hermes asks before running this command.';
    const offered = ev.choices.length < 4 ? ` Hermes offers only: ${ev.choices.join(', ')}.` : '';
    picker.frame = {
      v: 1,
      type: 'picker.approval',
      ...scope,
      payload: { picker_id, command: ev.command, description: description + offered },
    };
    this.state.pickers.set(picker_id, picker);
    this.state.save('self');
    hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'waiting_input' } });
    hub.emit(picker.frame);
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
  private approvalAnswered(turn: HermesTurn, choice: string): void {
    const closed = this.closeApprovals(turn);
    if (closed.length === 0) return;
    // The one question it answered, with the choice Hermes took (the `answered` extension).
    const only = closed.length === 1 && closed[0]!.choices?.includes(choice) ? closed[0] : undefined;
    const answered = only ? { answered: { picker_id: only.picker_id, value: choice } } : {};
    this.ctx.hub.emit({ v: 1, type: 'agent.busy', ...at(turn.addr), payload: { reason: 'processing', ...answered } });
  }

  /** Drops the run's waiting approvals; returns them. */
  private closeApprovals(turn: HermesTurn): PendingApproval[] {
    const closed: PendingApproval[] = [];
    for (const p of [...this.state.pickers.values()]) {
      if (p.kind === 'approval' && p.run_id !== undefined && p.run_id === turn.runId) {
        this.state.pickers.delete(p.picker_id);
        closed.push(p);
      }
    }
    if (closed.length) this.state.save();
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
    const providers: ModelProvider[] = [
      { id: PROVIDER_ID, label: this.description.name, models: models.map((id) => ({ id, label: id })) },
    ];
    const current = this.state.models.get(addr.lane) ?? models[0];
    const frame: ServerFrame = {
      v: 1,
      type: 'picker.model',
      ...at(addr),
      payload: { picker_id, current_provider: PROVIDER_ID, current_model: current, providers },
    };
    this.state.pickers.set(picker_id, { picker_id, kind: 'model', lane: addr.lane, models, frame });
    this.state.save('self');
    hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'waiting_input' } });
    hub.emit(frame);
  }

  /**
   * `/attach [session id]`: this lane continues one of Hermes's own sessions (started in the Hermes
   * CLI, another app, an earlier gateway), and the session's earlier messages become the lane's
   * history, once (README "History import"). Without an id, Hermes's recent sessions are listed.
   */
  private async attachSession(addr: LaneAddress, sessionId: string): Promise<void> {
    const { store, hub } = this.ctx;
    const cannot = (err: unknown) =>
      this.say(
        addr,
        'assistant',
        err instanceof HermesError && err.problem === 'too_old'
          ? `${this.description.name} has no session API (\`/api/sessions\`), so its earlier conversations cannot be imported.`
          : `⚠️ Could not read Hermes's sessions: ${(err as Error).message}`,
      );
    if (!sessionId) {
      let sessions;
      try {
        sessions = await this.client.sessions(20);
      } catch (err) {
        cannot(err);
        return;
      }
      const ours = new Set(this.state.sessions.values());
      const theirs = sessions.filter((s) => !ours.has(s.id) && (s.messageCount ?? 1) > 0).slice(0, 10);
      this.say(
        addr,
        'assistant',
        theirs.length
          ? [
              "Hermes's recent sessions (send `/attach <id>` in a new channel to continue one there):",
              '',
              ...theirs.map(
                (s) =>
                  `- \`${s.id}\`${s.title ? ` **${s.title}**` : ''}${s.messageCount !== undefined ? `, ${s.messageCount} messages` : ''}${s.source ? `, from ${s.source}` : ''}${s.preview ? `: ${s.preview}` : ''}`,
              ),
            ].join('\n')
          : 'Hermes has no sessions of its own to continue here.',
      );
      return;
    }
    if (!/^[^\s/\\]{1,256}$/.test(sessionId)) {
      this.say(addr, 'assistant', 'That is not a Hermes session id (see `/attach` for the list).');
      return;
    }
    const other = [...this.state.sessions].find(([lane, sid]) => sid === sessionId && lane !== addr.lane);
    if (other) {
      const name = store.channels.address(other[0])?.chat_id ?? other[0];
      this.say(addr, 'assistant', `Hermes session \`${sessionId}\` already continues in another channel (${name}).`);
      return;
    }
    const imported = this.state.imported.get(addr.lane) ?? [];
    if (this.state.sessions.get(addr.lane) === sessionId && imported.includes(sessionId)) {
      this.say(addr, 'assistant', `This channel already continues Hermes session \`${sessionId}\`.`);
      return;
    }
    let added: StoredMessage[] = [];
    if (!imported.includes(sessionId)) {
      let messages;
      let model;
      try {
        [messages, model] = await Promise.all([
          this.client.sessionMessages(sessionId),
          this.client.sessionModel(sessionId).catch(() => undefined),
        ]);
      } catch (err) {
        if (err instanceof HermesError && err.status === 404 && err.problem !== 'too_old') {
          this.say(addr, 'assistant', `Hermes has no session \`${sessionId}\` (see \`/attach\` for the list).`);
          return;
        }
        cannot(err);
        return;
      }
      // Stored before the lane is switched: a crash in between imports again, and finds them stored.
      added = historyFromSession(addr.lane, sessionId, messages, model).flatMap((m) => {
        const stored = store.conversations.insertByTime(m);
        return stored ? [stored] : [];
      });
      store.flush();
      for (const m of added) hub.emit(messageFrame(addr, m));
      this.state.imported.set(addr.lane, [...imported, sessionId]);
    }
    this.state.sessions.set(addr.lane, sessionId);
    this.state.save('self');
    this.say(
      addr,
      'assistant',
      `This channel now continues Hermes session \`${sessionId}\`${added.length ? `; its ${added.length} earlier messages are above` : ''}. Its next replies see that conversation.`,
    );
  }

  /** A final message from the bridge itself (not a Hermes run): stored, broadcast, pushed. */
  private say(addr: LaneAddress, role: Role, text: string): StoredMessage {
    const { store, hub } = this.ctx;
    const stored = store.conversations.append({
      lane: addr.lane,
      message_id: `${BRIDGE_ID}${randomUUID()}`,
      role,
      text,
    });
    store.flush();
    hub.emit(messageFrame(addr, stored));
    return stored;
  }
}

function helpText(d: AgentDescription): string {
  return [
    `You are talking to **${d.name}**${d.model ? ` (model ${d.model})` : ''} through its API server.`,
    '',
    "Works: streamed replies, tool activity, approvals of risky commands, Stop, pictures (up to 5 MB), text files such as logs, code or CSV (up to 100 KB; of a longer one, its last 100 KB), `/model`, `/attach` (continue one of Hermes's own sessions here, its history imported).",
    '',
    `Not with ${d.version ? `hermes-agent ${d.version}` : 'this Hermes version'}:`,
    '- steering a running reply: its API server has no steer endpoint, so a message sent during a reply waits for the next turn;',
    "- clarifying questions: the API server's toolset has no clarify tool, so Hermes cannot stop to ask you one;",
    "- Hermes's own slash commands: its API server runs none;",
    '- files other than pictures and text (PDFs, documents, archives, audio): its API server takes no files.',
  ].join('\n');
}
