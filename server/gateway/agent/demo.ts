// The scripted demo agent: one job at a time per lane (a turn, a picker, a reminder), slash
// commands, steering and stopping, picker answers, auto-threading, and recovery of turns a crash
// left open.
import type { ClientFrameOf, Role, ServerFrame } from '../../../src/protocol';
import type { Agent, AgentDescription, AgentHost } from '../agent';
import type { StoredMessage } from '../conversations';
import type { LaneAddress } from '../directory';
import { at, messageFrame, waitingPickerFrames } from '../frames';
import type { Requester } from '../peer';
import { makePng } from './png';
import { COMMANDS, parseCommand } from './commands';
import { answerText, postPicker, type PickerCommand } from './pickers';
import {
  DEMO_AGENT_NAME,
  fileScript,
  helpScript,
  imageScript,
  longScript,
  quote,
  replyScript,
  streamScript,
  thinkScript,
  type Script,
} from './script';
import { Turn } from './turn';
import { mediaRefOf } from '../mediastore';
import { catalogFrame, completeFrame } from '../commandframes';
import { LaneQueues } from '../lanequeue';
import { statusFrame } from '../agentstatus';

const MAX_REMIND_SECONDS = 24 * 3600;

export class DemoAgent implements Agent {
  private ctxRef: AgentHost | undefined;
  private readonly lanes = new LaneQueues<Turn>('demo', (line) => this.ctx.log(line));
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Threads this agent minted and will give a better title once it has answered. */
  private readonly autoThreads = new Set<string>();

  attach(ctx: AgentHost): void {
    this.ctxRef = ctx;
  }

  private get ctx(): AgentHost {
    if (!this.ctxRef) throw new Error('DemoAgent used before attach()');
    return this.ctxRef;
  }

  describe(): AgentDescription {
    return { kind: 'demo', name: DEMO_AGENT_NAME, model: this.ctx.store.agent.model, steer: true };
  }

  openPickers(): ServerFrame[] {
    return waitingPickerFrames(this.ctx.store.channels, this.ctx.store.agent.pickers.values());
  }

  catalog() {
    return catalogFrame(COMMANDS);
  }

  complete(prefix: unknown) {
    return completeFrame(COMMANDS, prefix);
  }

  /** Where an incoming message belongs: `/thread …` in a channel makes the gateway mint a thread for it. */
  laneFor(addr: LaneAddress, text: string): LaneAddress {
    const cmd = parseCommand(text);
    if (cmd?.name !== 'thread' || addr.thread_id !== undefined) return addr;
    const { store, hub } = this.ctx;
    const words = (cmd.args || 'New thread').split(/\s+/);
    const name = words.slice(0, 5).join(' ') + (words.length > 5 ? '…' : '');
    const entry = store.channels.create(name, 'thread', addr.chat_id);
    store.flush();
    this.autoThreads.add(entry.chat_id);
    hub.emit({ v: 1, type: 'channel.created', payload: { ...entry, auto: true } });
    return store.channels.address(entry.chat_id)!;
  }

  /** A stored user message: queue the agent's work on it in its lane. */
  onUserMessage(addr: LaneAddress, msg: StoredMessage, senderDevice: string): void {
    this.lanes.enqueue(addr.lane, (done) => {
      const { hub } = this.ctx;
      // The agent starts on it now: the sender's bubble turns "read" (spec README §5).
      hub.emit(
        { v: 1, type: 'read.receipt', ...at(addr), payload: { message_id: msg.message_id } },
        { only: [senderDevice] },
      );
      this.supersedePickers(addr);
      const cmd = parseCommand(msg.text);
      switch (cmd?.name) {
        case 'model':
        case 'choose':
        case 'clarify':
        case 'approve':
        case 'confirm':
          postPicker(this.ctx, addr, cmd.name as PickerCommand, cmd.args);
          return done();
        case 'remind':
          this.remind(addr, cmd.args);
          return done();
        case 'image':
          return this.runTurn(addr, imageScript(cmd.args), done);
        case 'help':
          return this.runTurn(addr, helpScript(), done);
        case 'long':
          return this.runTurn(addr, longScript(), done);
        case 'think':
          return this.runTurn(addr, thinkScript(cmd.args || msg.text), done);
        case 'stream':
          return this.runTurn(addr, streamScript(Number.parseInt(cmd.args, 10)), done);
        case 'file': {
          const [lines, updates] = cmd.args.split(/\s+/).map((n) => Number.parseInt(n, 10));
          return this.runTurn(addr, fileScript(lines ?? 100, updates ?? 1), done);
        }
        case 'thread':
          return this.runTurn(addr, replyScript(cmd.args || msg.text), () => {
            this.betterThreadTitle(addr, cmd.args);
            done();
          });
        default:
          return this.runTurn(addr, replyScript(msg.text, msg.media), done);
      }
    });
  }

  /**
   * A new message in a lane where a question waits moves the agent on: the question is dropped, and
   * agent.busy closes it on every device (§11), as every app does on that frame. Kept, it would be
   * restated to devices paired later and answerable there, while the devices that saw it have closed it.
   */
  private supersedePickers(addr: LaneAddress): void {
    const { store, hub } = this.ctx;
    const waiting = [...store.agent.pickers.values()].filter((p) => p.lane === addr.lane);
    if (waiting.length === 0) return;
    for (const p of waiting) store.agent.pickers.delete(p.picker_id);
    store.agent.save();
    hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } });
  }

  stop(requester: Requester, frame: ClientFrameOf<'agent.stop'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const turn = this.lanes.active(addr.lane);
    if (!turn || turn.finished) {
      // Nothing is running: the agent is idle, which is what the app asked for.
      return requester.send({ v: 1, type: 'agent.idle', id: frame.id, ...at(addr), payload: {} });
    }
    this.stopReply = { peer: requester, id: frame.id };
    turn.stop({ byPerson: true });
  }

  steer(requester: Requester, frame: ClientFrameOf<'agent.steer'>): void {
    const addr = this.ctx.store.channels.resolve(frame.chat_id, frame.thread_id);
    if (!addr) return requester.error('not_found', 'No such channel or thread.', frame.id);
    const text = typeof frame.payload.text === 'string' ? frame.payload.text.trim() : '';
    if (text === '') return requester.error('unsupported', 'agent.steer needs text.', frame.id);
    const turn = this.lanes.active(addr.lane);
    if (!turn || turn.finished)
      return requester.error('not_found', 'No turn is in progress in this lane to steer.', frame.id);
    turn.steer(text, { peer: requester, id: frame.id });
  }

  select(requester: Requester, frame: ClientFrameOf<'picker.select'>): void {
    const { store, hub } = this.ctx;
    const pickerId = frame.payload.picker_id;
    const picker = typeof pickerId === 'string' ? store.agent.pickers.get(pickerId) : undefined;
    if (!picker)
      return requester.error('not_found', 'That question was already answered or no longer exists.', frame.id);
    const answer = answerText(this.ctx, picker, frame.payload.value);
    if ('error' in answer) return requester.error('unsupported', `Invalid answer: ${answer.error}`, frame.id);
    store.agent.pickers.delete(picker.picker_id);
    store.agent.save();
    const addr = store.channels.address(picker.lane) ?? { lane: picker.lane, chat_id: picker.lane };
    // agent.busy closes the picker on every device, saying which answer it took (the `answered` extension);
    // the answering socket's copy acknowledges its request.
    // (The stalePickers quirk tells only the answering device, so the others keep a stale picker.)
    const closing = this.ctx.quirks?.stalePickers ? { only: [requester.deviceId] } : {};
    const answered = { picker_id: picker.picker_id, value: String(frame.payload.value) };
    hub.emit(
      { v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing', answered } },
      { ...closing, reply: { peer: requester, id: frame.id } },
    );
    this.say(addr, 'assistant', answer.text);
    // The model is part of the status every device shows (Settings): tell them all now, not at their next hello.
    if (picker.type === 'picker.model') hub.live(statusFrame(this.describe()));
    hub.emit({ v: 1, type: 'agent.idle', ...at(addr), payload: {} }, closing);
  }

  /** Close turns a crash left streaming: their bubbles get a final text instead of streaming forever. */
  recover(): void {
    const { store, hub } = this.ctx;
    for (const turn of [...store.agent.inflight.values()]) {
      store.agent.inflight.delete(turn.message_id);
      const addr = store.channels.address(turn.lane);
      if (!addr || store.conversations.get(turn.message_id)) continue;
      const final_text = '_(This reply was interrupted when the gateway restarted.)_';
      const stored = store.conversations.append({
        lane: turn.lane,
        message_id: turn.message_id,
        role: 'assistant',
        text: final_text,
        model: store.agent.model,
      });
      hub.emit({
        v: 1,
        type: 'message.stop',
        ...at(addr),
        payload: { message_id: turn.message_id, final_text, model: store.agent.model, ts: stored.ts! },
      });
      hub.emit({ v: 1, type: 'typing', ...at(addr), payload: { on: false } });
      hub.emit({ v: 1, type: 'agent.idle', ...at(addr), payload: {} });
    }
    store.agent.save('everything');
  }

  /** Stop timers and finish running turns (their text so far becomes final). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const turn of this.lanes.close()) turn.stop({ note: '\n\n_(interrupted: the gateway stopped)_' });
  }

  private stopReply: { peer: Requester; id?: number } | undefined;

  private runTurn(addr: LaneAddress, script: Script, done: () => void): void {
    const { hub } = this.ctx;
    hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } });
    const turn = new Turn(this.ctx, addr, script, (end) => {
      if (script.image) this.offerImage(addr, end.message_id, script.image);
      hub.emit({ v: 1, type: 'typing', ...at(addr), payload: { on: false } });
      const reply = this.stopReply;
      this.stopReply = undefined;
      hub.emit({ v: 1, type: 'agent.idle', ...at(addr), payload: {} }, reply ? { reply } : {});
      done();
    });
    this.lanes.activate(addr.lane, turn);
    turn.begin();
  }

  /** A generated PNG, attached to the assistant message and offered for media.pull. */
  private offerImage(addr: LaneAddress, messageId: string, seed: string): void {
    const { store, hub } = this.ctx;
    const record = store.media.add({ kind: 'image', mime: 'image/png', filename: 'iris-demo.png' }, makePng(seed));
    const ref = mediaRefOf(record);
    store.conversations.addMedia(messageId, [ref]);
    hub.emit({ v: 1, type: 'media.offer', ...at(addr), payload: { ...ref, message_id: messageId } });
  }

  /** A final message from the agent (not streamed): stored, broadcast, pushed to devices that are away. */
  private say(addr: LaneAddress, role: Role, text: string): StoredMessage {
    const { store, hub } = this.ctx;
    const stored = store.conversations.append({
      lane: addr.lane,
      role,
      text,
      ...(role === 'assistant' ? { model: store.agent.model } : {}),
    });
    store.flush(); // durable before any device sees it
    hub.emit(messageFrame(addr, stored));
    if (role === 'assistant') {
      this.ctx.push.notify({
        kind: 'message',
        title: DEMO_AGENT_NAME,
        body: quote(text, 140),
        lane: addr.lane,
        chat_id: addr.chat_id,
        ...(addr.thread_id ? { thread_id: addr.thread_id } : {}),
        message_id: stored.message_id,
        ts: stored.ts!,
      });
    }
    return stored;
  }

  /** `/remind <seconds> <text>`: acknowledge now; later a cron notification and a cron message. */
  private remind(addr: LaneAddress, args: string): void {
    const { hub } = this.ctx;
    const m = /^(\d+(?:\.\d+)?)\s+([\s\S]+)$/.exec(args);
    const seconds = m ? Number(m[1]) : NaN;
    hub.emit({ v: 1, type: 'agent.busy', ...at(addr), payload: { reason: 'processing' } });
    if (!m || !(seconds <= MAX_REMIND_SECONDS)) {
      this.say(addr, 'assistant', `Usage: \`/remind <seconds> <text>\` (at most ${MAX_REMIND_SECONDS} seconds).`);
    } else {
      const text = quote(m[2], 300);
      this.say(addr, 'assistant', `I'll remind you in ${seconds} s: **${text}**`);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.fireReminder(addr, text);
      }, seconds * 1000);
      this.timers.add(timer);
    }
    hub.emit({ v: 1, type: 'agent.idle', ...at(addr), payload: {} });
  }

  private fireReminder(addr: LaneAddress, text: string): void {
    const { store, hub } = this.ctx;
    const ts = store.conversations.now();
    const notification = { kind: 'cron' as const, title: 'Reminder', body: text, ts };
    hub.emit({ v: 1, type: 'notification', ...at(addr), payload: notification });
    // The text alone: the app labels a cron message (its card says "Reminder").
    const stored = this.say(addr, 'cron', text);
    this.ctx.push.notify({
      ...notification,
      lane: addr.lane,
      chat_id: addr.chat_id,
      ...(addr.thread_id ? { thread_id: addr.thread_id } : {}),
      message_id: stored.message_id,
    });
  }

  /** After the first answer, an auto-thread gets a better title (as an LLM-made title would arrive). */
  private betterThreadTitle(addr: LaneAddress, args: string): void {
    if (!this.autoThreads.delete(addr.lane)) return;
    const { store, hub } = this.ctx;
    const topic = quote(args || 'a new topic', 40);
    const name = `Re: ${topic.charAt(0).toUpperCase()}${topic.slice(1)}`;
    const entry = store.channels.update(addr.lane, { name });
    if (entry) hub.emit({ v: 1, type: 'channel.renamed', payload: entry });
  }
}
