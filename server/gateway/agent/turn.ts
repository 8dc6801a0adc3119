// One streamed assistant turn (spec README §7): message.start, message.update with the full text so
// far, commentary and tool frames between them, then message.stop with the authoritative text. The
// final message is stored under the same message_id. stop() ends it at once with the text so far.
import type { HistoryTool } from '../../../src/protocol';
import type { AgentHost } from '../agent';
import type { LaneAddress } from '../directory';
import { at, endedTool } from '../frames';
import type { Peer } from '../peer';
import { DEMO_AGENT_NAME, quote, steerText, wordCount, type Script, type Step } from './script';

export interface TurnEnd {
  message_id: string;
  text: string;
}

export class Turn {
  readonly messageId: string;
  private text = '';
  private reasoning = '';
  private pos = 0;
  private timer:
    { kind: 'timeout'; handle: NodeJS.Timeout } | { kind: 'immediate'; handle: NodeJS.Immediate } | undefined;
  private openTool: { index: number; name: string; preview?: string } | undefined;
  /** The turn's tool calls as they ended: kept with the reply for history (the `tools` extension). */
  private readonly tools: HistoryTool[] = [];
  private done = false;
  private startedAt = 0;
  /** From the bubble's opening to its first text: kept with a reply that has reasoning (the `thought_ms` extension). */
  private thoughtMs: number | undefined;

  constructor(
    private readonly ctx: AgentHost,
    readonly addr: LaneAddress,
    private readonly script: Script,
    private readonly onEnd: (end: TurnEnd) => void,
  ) {
    this.messageId = ctx.store.conversations.newId();
  }

  get finished(): boolean {
    return this.done;
  }

  begin(): void {
    const { store, hub } = this.ctx;
    this.startedAt = Date.now();
    hub.emit({ v: 1, type: 'typing', ...at(this.addr), payload: { on: true } });
    // Durable before the bubble opens, so a crash can close it after the restart.
    store.agent.inflight.set(this.messageId, { message_id: this.messageId, lane: this.addr.lane });
    store.agent.save('self');
    hub.emit({
      v: 1,
      type: 'message.start',
      ...at(this.addr),
      payload: { message_id: this.messageId, role: 'assistant' },
    });
    this.schedule();
  }

  /** The user steered mid-turn: acknowledge now, and let the reply say so. */
  steer(text: string, reply: { peer: Peer; id?: number }): void {
    this.ctx.hub.emit(
      {
        v: 1,
        type: 'commentary',
        ...at(this.addr),
        payload: { message_id: this.messageId, text: `Steering: ${quote(text, 200)}` },
      },
      { reply },
    );
    this.script.steps.splice(this.pos, 0, { kind: 'text', append: steerText(text) });
  }

  /**
   * End now with the text so far: `byPerson` for agent.stop (the reply says it was stopped: this project's
   * extension), else the gateway closing or a failed step, with an optional `note` appended.
   */
  stop(end: { byPerson?: boolean; note?: string } = {}): void {
    const { byPerson = false, note } = end;
    if (this.done) return;
    this.clearTimer();
    if (this.openTool) {
      const { index, name, preview } = this.openTool;
      this.ctx.hub.emit({
        v: 1,
        type: 'tool.end',
        ...at(this.addr),
        payload: { index, name, ok: false, output_preview: 'stopped' },
      });
      this.tools.push(endedTool({ index, name, preview }, false));
      this.openTool = undefined;
    }
    if (note) this.text += note;
    this.finish(byPerson);
  }

  private schedule(): void {
    const delay = this.ctx.streamDelayMs;
    const run = () => {
      this.timer = undefined;
      try {
        this.step();
      } catch (err) {
        this.ctx.log(`gateway: demo turn failed: ${(err as Error).stack ?? String(err)}`);
        this.stop();
      }
    };
    this.timer =
      delay > 0
        ? { kind: 'timeout', handle: setTimeout(run, delay) }
        : { kind: 'immediate', handle: setImmediate(run) };
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    if (this.timer.kind === 'timeout') clearTimeout(this.timer.handle);
    else clearImmediate(this.timer.handle);
    this.timer = undefined;
  }

  private step(): void {
    if (this.done) return;
    const step = this.script.steps[this.pos++];
    if (!step) return this.finish();
    this.emitStep(step);
    this.schedule();
  }

  private emitStep(step: Step): void {
    const { hub } = this.ctx;
    const scope = at(this.addr);
    switch (step.kind) {
      case 'text':
      case 'reasoning': {
        if (step.kind === 'text' && !this.text && step.append) this.thoughtMs = Date.now() - this.startedAt;
        if (step.kind === 'text') this.text += step.append;
        else this.reasoning += step.append;
        // Extension: an update carries the reasoning so far too, once there is some (so the newest update says it all).
        const reasoning = this.reasoning ? { reasoning: this.reasoning } : {};
        hub.emit({
          v: 1,
          type: 'message.update',
          ...scope,
          payload: { message_id: this.messageId, text: this.text, ...reasoning },
        });
        return;
      }
      case 'commentary':
        hub.emit({ v: 1, type: 'commentary', ...scope, payload: { message_id: this.messageId, text: step.text } });
        return;
      case 'tool.start':
        this.openTool = { index: step.index, name: step.name, ...(step.preview ? { preview: step.preview } : {}) };
        hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'tool' } });
        hub.emit({
          v: 1,
          type: 'tool.start',
          ...scope,
          payload: { index: step.index, name: step.name, preview: step.preview, args: step.args },
        });
        return;
      case 'tool.progress':
        hub.emit({
          v: 1,
          type: 'tool.progress',
          ...scope,
          payload: { index: step.index, name: step.name, note: step.note },
        });
        return;
      case 'tool.end': {
        const preview = this.openTool?.index === step.index ? this.openTool.preview : undefined;
        this.tools.push(endedTool({ ...step, preview }, step.ok, step.duration));
        this.openTool = undefined;
        hub.emit({
          v: 1,
          type: 'tool.end',
          ...scope,
          payload: {
            index: step.index,
            name: step.name,
            ok: step.ok,
            duration: step.duration,
            output_preview: step.output_preview,
          },
        });
        hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'processing' } });
        return;
      }
    }
  }

  private finish(stopped = false): void {
    if (this.done) return;
    this.done = true;
    const { store, hub } = this.ctx;
    const final_text = this.text;
    const model = store.agent.model;
    const tokens = wordCount(final_text);
    const stored = store.conversations.append({
      lane: this.addr.lane,
      message_id: this.messageId,
      role: 'assistant',
      text: final_text,
      reasoning: this.script.reasoning,
      model,
      tokens,
      ...(stopped ? { stopped } : {}),
      ...(this.tools.length ? { tools: this.tools } : {}),
      ...(this.script.reasoning && this.thoughtMs !== undefined ? { thought_ms: this.thoughtMs } : {}),
    });
    store.agent.inflight.delete(this.messageId);
    store.agent.save('everything');
    hub.emit({
      v: 1,
      type: 'message.stop',
      ...at(this.addr),
      payload: {
        message_id: this.messageId,
        final_text,
        reasoning: this.script.reasoning,
        model,
        tokens,
        ts: stored.ts!,
        ...(stopped ? { stopped } : {}),
      },
    });
    this.ctx.push.notify({
      kind: 'message',
      title: DEMO_AGENT_NAME,
      body: quote(final_text, 140) || 'New reply',
      lane: this.addr.lane,
      chat_id: this.addr.chat_id,
      ...(this.addr.thread_id ? { thread_id: this.addr.thread_id } : {}),
      message_id: this.messageId,
      ts: stored.ts!,
    });
    this.onEnd({ message_id: this.messageId, text: final_text });
  }
}
