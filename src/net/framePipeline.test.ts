// The frame pipeline: order kept, a burst of updates of one message reduced to one write per flush,
// the final text never overwritten by a stale update.
import { describe, expect, it, vi } from 'vitest';
import type { ServerFrame } from '../protocol';
import { FramePipeline, REPLAY_CHUNK, updateSpacingMs } from './framePipeline';

function update(id: string, text: string, lane = 'web:default'): ServerFrame {
  return { v: 1, type: 'message.update', chat_id: lane, payload: { message_id: id, text } };
}

function setup() {
  const applied: ServerFrame[] = [];
  const batches: { frames: ServerFrame[]; cursor?: number }[] = [];
  const flushes: (() => void)[] = [];
  const pipeline = new FramePipeline({
    apply: async (f) => {
      applied.push(f);
    },
    applyBatch: async (frames, cursor) => {
      // Without a cursor: frames that waited for the chain, written together (same order).
      if (cursor === undefined) applied.push(...frames);
      else batches.push({ frames, cursor });
    },
    schedule: (run) => flushes.push(run),
  });
  const flushNow = () => flushes.splice(0).forEach((f) => f());
  return { pipeline, applied, batches, flushNow, flushes };
}

const texts = (frames: ServerFrame[]) =>
  frames.map(
    (f) =>
      `${f.type}:${(f.payload as { text?: string; final_text?: string }).text ?? (f.payload as { final_text?: string }).final_text ?? ''}`,
  );

/**
 * A pipeline whose writes of `slow` frames wait until `release()`, so frames pile up behind them.
 * `applied` lists every frame written, `writes` each write (one frame, or a group), `cursors` the cursor
 * of each group write. `failing` frames fail to write; `batchFails` makes every group write fail.
 */
function slowPipeline(opts: { slow: string; manualFlush?: boolean; failing?: string; batchFails?: boolean }) {
  const applied: ServerFrame[] = [];
  const writes: string[][] = [];
  const cursors: (number | undefined)[] = [];
  const errors: unknown[] = [];
  const flushes: (() => void)[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const pipeline = new FramePipeline({
    apply: async (f) => {
      if (f.type === opts.slow) await gate;
      if (f.type === opts.failing) throw new Error('disk full');
      applied.push(f);
      writes.push([f.type]);
    },
    applyBatch: async (frames, cursor) => {
      if (opts.batchFails) throw new Error('disk full');
      cursors.push(cursor);
      applied.push(...frames);
      writes.push(frames.map((f) => f.type));
    },
    schedule: opts.manualFlush ? (run) => flushes.push(run) : (run) => run(),
    onError: (e) => errors.push(e),
  });
  const flushNow = () => flushes.splice(0).forEach((f) => f());
  return { pipeline, applied, writes, cursors, errors, release, flushNow };
}

describe('FramePipeline', () => {
  it('writes only the newest of a burst of updates, once per scheduled flush', async () => {
    const { pipeline, applied, flushNow, flushes } = setup();
    const done: Promise<void>[] = [];
    for (let i = 1; i <= 500; i++) done.push(pipeline.push(update('m1', 'x'.repeat(i))));
    expect(flushes).toHaveLength(1); // one flush scheduled for the whole burst
    flushNow();
    await Promise.all(done); // every push settles once its text (or a newer one) is stored
    expect(applied).toHaveLength(1);
    expect((applied[0]!.payload as { text: string }).text).toHaveLength(500);
  });

  it('spaces the writes of a long streamed text by its length, and writes its stop at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const applied: ServerFrame[] = [];
      const pipeline = new FramePipeline({
        apply: async (f) => void applied.push(f),
        applyBatch: async (frames) => void applied.push(...frames),
        schedule: (run) => run(),
        readsSettled: async () => {}, // no screen reading here: the spacing alone
      });
      const long = 'x'.repeat(49_990);
      expect(updateSpacingMs(long.length + 4)).toBe(50);
      expect(updateSpacingMs(10_000)).toBe(0); // a short answer is written every frame
      const lengths = () => applied.map((f) => (f.payload as { text?: string }).text?.length ?? f.type);
      void pipeline.push(update('m1', long + '1'));
      await vi.advanceTimersByTimeAsync(0);
      expect(lengths()).toEqual([49_991]);
      void pipeline.push(update('m1', long + '22'));
      const third = pipeline.push(update('m1', long + '333'));
      await vi.advanceTimersByTimeAsync(49);
      expect(lengths()).toEqual([49_991]); // not yet: 50 ms after the last write
      await vi.advanceTimersByTimeAsync(1);
      await third;
      expect(lengths()).toEqual([49_991, 49_993]); // only the newest of what waited
      void pipeline.push(update('m1', long + '4444'));
      const stop = pipeline.push({
        v: 1,
        type: 'message.stop',
        chat_id: 'web:default',
        payload: { message_id: 'm1', final_text: long + 'end' },
      });
      await vi.advanceTimersByTimeAsync(0);
      await stop;
      // The final text does not wait for the spacing; the update it replaces is never written.
      expect(lengths()).toEqual([49_991, 49_993, 'message.stop']);
      await vi.advanceTimersByTimeAsync(200);
      expect(applied).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('message.stop cancels the held update and lands its final text after everything before it', async () => {
    const { pipeline, applied, flushNow } = setup();
    void pipeline.push({ v: 1, type: 'message.start', chat_id: 'a', payload: { message_id: 'm1', role: 'assistant' } });
    void pipeline.push(update('m1', 'Hel', 'a'));
    void pipeline.push(update('m1', 'Hello wor', 'a'));
    const stop = pipeline.push({
      v: 1,
      type: 'message.stop',
      chat_id: 'a',
      payload: { message_id: 'm1', final_text: 'Hello world' },
    });
    flushNow(); // a late flush must not write the stale update after the stop
    await stop;
    await pipeline.flush();
    expect(texts(applied)).toEqual(['message.start:', 'message.stop:Hello world']);
  });

  it('a frame that reads messages writes the held updates of its lane first; others let them wait', async () => {
    const { pipeline, applied } = setup();
    void pipeline.push(update('m1', 'one', 'a'));
    void pipeline.push(update('m2', 'other lane', 'b'));
    void pipeline.push(update('m1', 'one two', 'a'));
    // A tool card does not depend on the text: the update stays held (and coalesced).
    await pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } });
    expect(texts(applied)).toEqual(['tool.start:']);
    // agent.idle ends streaming bubbles with the text they have: the newest update lands first.
    await pipeline.push({ v: 1, type: 'agent.idle', chat_id: 'a', payload: {} });
    expect(texts(applied)).toEqual(['tool.start:', 'message.update:one two', 'agent.idle:']);
    await pipeline.flush();
    expect(texts(applied)).toEqual([
      'tool.start:',
      'message.update:one two',
      'agent.idle:',
      'message.update:other lane',
    ]);
  });

  it('a frame that reads messages without naming a lane writes every held update first', async () => {
    const { pipeline, applied } = setup();
    void pipeline.push(update('m1', 'a1', 'a'));
    void pipeline.push(update('m2', 'b1', 'b'));
    await pipeline.push({ v: 1, type: 'channel.deleted', payload: { chat_id: 'c' } });
    expect(texts(applied)).toEqual(['channel.deleted:']);
    await pipeline.push({ v: 1, type: 'history', payload: { messages: [] } } as unknown as ServerFrame);
    expect(texts(applied)).toEqual(['channel.deleted:', 'message.update:a1', 'message.update:b1', 'history:']);
  });

  it('updates mixed with other frames of the lane are still coalesced', async () => {
    const { pipeline, applied } = setup();
    for (let i = 0; i < 50; i++) {
      void pipeline.push(update('m1', `text ${i}`, 'a'));
      void pipeline.push({ v: 1, type: 'typing', chat_id: 'a', payload: { on: i % 2 === 0 } });
      void pipeline.push({
        v: 1,
        type: 'tool.progress',
        chat_id: 'a',
        payload: { index: 0, name: 't', note: `n${i}` },
      });
    }
    await pipeline.flush();
    expect(texts(applied).filter((t) => t.startsWith('message.update'))).toEqual(['message.update:text 49']);
  });

  it('message.deleted drops held updates of the deleted messages', async () => {
    const { pipeline, applied } = setup();
    void pipeline.push(update('m1', 'gone', 'a'));
    await pipeline.push({ v: 1, type: 'message.deleted', chat_id: 'a', payload: { message_ids: ['m1'] } });
    await pipeline.flush();
    expect(texts(applied)).toEqual(['message.deleted:']);
  });

  it('a batch collects frames in order and applies them at once with the cursor', async () => {
    const { pipeline, applied, batches } = setup();
    pipeline.beginBatch();
    const a = pipeline.push({ v: 1, type: 'typing', chat_id: 'a', payload: { on: true } });
    const b = pipeline.push(update('m1', 'x', 'a'));
    expect(applied).toHaveLength(0);
    await pipeline.endBatch(42);
    await Promise.all([a, b]);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.cursor).toBe(42);
    expect(batches[0]!.frames.map((f) => f.type)).toEqual(['typing', 'message.update']);
    expect(pipeline.batching).toBe(false);
  });

  it('while a write is slow, newer updates join the queued write instead of queueing one per flush', async () => {
    const { pipeline, applied, release, flushNow } = slowPipeline({ slow: 'tool.start', manualFlush: true });
    const tool = pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } });
    const done: Promise<void>[] = [];
    // Sixty animation frames of updates while the chain is busy.
    for (let frame = 1; frame <= 60; frame++) {
      for (let i = 0; i < 5; i++) done.push(pipeline.push(update('m1', `frame ${frame} update ${i}`, 'a')));
      flushNow();
    }
    release();
    await tool;
    await Promise.all(done);
    expect(texts(applied)).toEqual(['tool.start:', 'message.update:frame 60 update 4']);
    // That write is done: a newer update gets a write of its own.
    const later = pipeline.push(update('m1', 'later', 'a'));
    flushNow();
    await later;
    expect(texts(applied).at(-1)).toBe('message.update:later');
  });

  it('an update sent after a frame that reads messages is not written before that frame', async () => {
    const { pipeline, applied, release } = slowPipeline({ slow: 'tool.start' });
    void pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } });
    void pipeline.push(update('m1', 'before', 'a')); // queued behind the slow write
    void pipeline.push({ v: 1, type: 'message.start', chat_id: 'a', payload: { message_id: 'm2', role: 'assistant' } });
    void pipeline.push(update('m1', 'after', 'a'));
    release();
    await pipeline.flush();
    expect(texts(applied)).toEqual(['tool.start:', 'message.update:before', 'message.start:', 'message.update:after']);
  });

  it('a queued update made obsolete by the final message is not written', async () => {
    const { pipeline, applied, release } = slowPipeline({ slow: 'tool.start' });
    void pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } });
    const stale = pipeline.push(update('m1', 'Hello wor', 'a'));
    const stop = pipeline.push({
      v: 1,
      type: 'message.stop',
      chat_id: 'a',
      payload: { message_id: 'm1', final_text: 'Hello world' },
    });
    release();
    await Promise.all([stale, stop]);
    expect(texts(applied)).toEqual(['tool.start:', 'message.stop:Hello world']);
  });

  it('frames that arrive during a slow write are written together after it, in order', async () => {
    const { pipeline, writes, cursors, release } = slowPipeline({ slow: 'agent.busy' });
    const first = pipeline.push({ v: 1, type: 'agent.busy', chat_id: 'a', payload: {} });
    await Promise.resolve(); // the busy frame's write has started
    const rest = [
      pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } }),
      pipeline.push({ v: 1, type: 'tool.progress', chat_id: 'a', payload: { index: 0, name: 't', note: 'half' } }),
      pipeline.push({ v: 1, type: 'tool.end', chat_id: 'a', payload: { index: 0, name: 't', ok: true } }),
    ];
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([['agent.busy'], ['tool.start', 'tool.progress', 'tool.end']]);
    expect(cursors).toEqual([undefined]);
  });

  it('a flood waiting for the chain is written in transactions of at most 100 frames', async () => {
    const { pipeline, writes, release } = slowPipeline({ slow: 'agent.busy' });
    const first = pipeline.push({ v: 1, type: 'agent.busy', chat_id: 'a', payload: {} });
    await Promise.resolve();
    const rest = Array.from({ length: 250 }, (_, i) =>
      pipeline.push({ v: 1, type: 'typing', chat_id: 'a', payload: { on: i % 2 === 0 } }),
    );
    release();
    await Promise.all([first, ...rest]);
    const sizes = writes.slice(1).map((w) => w.length);
    expect(sizes).toEqual([100, 100, 50]);
  });

  it('a group that cannot be written whole is written frame by frame: only the bad frame fails', async () => {
    const { pipeline, applied, errors, release } = slowPipeline({
      slow: 'agent.busy',
      failing: 'typing',
      batchFails: true,
    });
    const first = pipeline.push({ v: 1, type: 'agent.busy', chat_id: 'a', payload: {} });
    await Promise.resolve();
    const ok1 = pipeline.push({ v: 1, type: 'tool.start', chat_id: 'a', payload: { index: 0, name: 't' } });
    const bad = pipeline.push({ v: 1, type: 'typing', chat_id: 'a', payload: { on: true } });
    const ok2 = pipeline.push({ v: 1, type: 'agent.idle', chat_id: 'a', payload: {} });
    release();
    await first;
    await expect(bad).rejects.toThrow('disk full');
    await Promise.all([ok1, ok2]);
    expect(applied.map((f) => f.type)).toEqual(['agent.busy', 'tool.start', 'agent.idle']);
    expect(errors).toHaveLength(1);
  });

  it('a failed write is reported and the frames after it still land', async () => {
    const applied: string[] = [];
    const errors: unknown[] = [];
    const pipeline = new FramePipeline({
      apply: async (f) => {
        if (f.type === 'typing') throw new Error('disk full');
        applied.push(f.type);
      },
      applyBatch: async () => {},
      schedule: (run) => run(),
      onError: (e) => errors.push(e),
    });
    await expect(pipeline.push({ v: 1, type: 'typing', chat_id: 'a', payload: { on: true } })).rejects.toThrow(
      'disk full',
    );
    await pipeline.push({ v: 1, type: 'agent.idle', chat_id: 'a', payload: {} });
    expect(applied).toEqual(['agent.idle']);
    expect(errors).toHaveLength(1);
  });
});

describe('FramePipeline: the text handed out before it is stored (onText)', () => {
  /** A pipeline whose writes wait until `release()`; `given` lists every onText call. */
  function textPipeline(opts: { failing?: string } = {}) {
    const given: [string, string | undefined][] = [];
    const flushes: (() => void)[] = [];
    const stored: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const write = async (f: ServerFrame) => {
      await gate;
      if (f.type === opts.failing) throw new Error('disk full');
      stored.push(texts([f])[0]!);
    };
    const pipeline = new FramePipeline({
      apply: write,
      applyBatch: async (frames) => {
        for (const f of frames) await write(f);
      },
      schedule: (run) => flushes.push(run),
      onText: (id, text) => given.push([id, text]),
      onError: () => {},
    });
    const flushNow = () => flushes.splice(0).forEach((f) => f());
    return { pipeline, given, stored, release, flushNow };
  }
  const stop = (id: string, finalText: string): ServerFrame => ({
    v: 1,
    type: 'message.stop',
    chat_id: 'web:default',
    payload: { message_id: id, final_text: finalText },
  });

  it("gives an update's text when its write is queued, and newer ones at the next paints while it waits", async () => {
    const { pipeline, given, stored, release, flushNow } = textPipeline();
    const first = pipeline.push(update('m1', 'a'));
    void pipeline.push(update('m1', 'ab'));
    expect(given).toEqual([]); // not before the next paint: one text per write, not per frame
    flushNow();
    expect(given).toEqual([['m1', 'ab']]);
    expect(stored).toEqual([]); // the write is still waiting
    await Promise.resolve(); // it has started
    // The next write is queued behind it and takes newer frames: its text is given when it is queued,
    // and each newer one at the next paint while it waits (the screen does not wait for the store)…
    void pipeline.push(update('m1', 'abc'));
    flushNow();
    void pipeline.push(update('m1', 'abcd'));
    void pipeline.push(update('m1', 'abcde'));
    expect(given.map(([, t]) => t)).toEqual(['ab', 'abc']); // not before the paint
    flushNow();
    expect(given.map(([, t]) => t)).toEqual(['ab', 'abc', 'abcde']);
    void pipeline.push(update('m1', 'abcdef'));
    release();
    await first;
    await pipeline.flush();
    // …and when it starts, with the newest frame it took: never older than what is stored.
    expect(given.map(([, t]) => t)).toEqual(['ab', 'abc', 'abcde', 'abcdef']);
    expect(stored).toEqual(['message.update:ab', 'message.update:abcdef']);
  });

  it('reads the text only of the updates it gives or stores, not of those a newer one replaced first', async () => {
    const { pipeline, given, stored, release, flushNow } = textPipeline();
    const read: string[] = [];
    // An update whose text is parsed on first read, as parseServerFrame gives them (protocol/codec.ts).
    const lazy = (text: string): ServerFrame => {
      const frame = update('m1', '');
      Object.defineProperty(frame.payload, 'text', { enumerable: true, get: () => (read.push(text), text) });
      return frame;
    };
    for (let i = 1; i <= 50; i++) void pipeline.push(lazy('x'.repeat(i)));
    flushNow();
    await Promise.resolve(); // its write has started
    for (let i = 51; i <= 60; i++) void pipeline.push(lazy('x'.repeat(i)));
    flushNow(); // its write is queued behind the first and takes the frames that come meanwhile
    for (let i = 61; i <= 100; i++) void pipeline.push(lazy('x'.repeat(i)));
    flushNow();
    release();
    await pipeline.flush();
    expect(given.map(([, t]) => t?.length)).toEqual([50, 60, 100]);
    expect(stored).toEqual([`message.update:${'x'.repeat(50)}`, `message.update:${'x'.repeat(100)}`]);
    expect(new Set(read.map((t) => t.length))).toEqual(new Set([50, 60, 100]));
  });

  it("after an update's write, the next waits until the screen's reads have settled; its text does not", async () => {
    const given: string[] = [];
    const stored: string[] = [];
    const flushes: (() => void)[] = [];
    let settle!: () => void;
    const pauses: number[] = [];
    const pipeline = new FramePipeline({
      apply: async (f) => void stored.push(texts([f])[0]!),
      applyBatch: async (frames) => void stored.push(...texts(frames)),
      schedule: (run) => flushes.push(run),
      onText: (_, text) => void (text !== undefined && given.push(text)),
      // The live queries re-reading the row: a write overtaking them would make them start over.
      readsSettled: (maxMs) => {
        pauses.push(maxMs);
        return new Promise<void>((r) => (settle = r));
      },
    });
    const flushNow = () => flushes.splice(0).forEach((f) => f());
    void pipeline.push(update('m1', 'a'));
    flushNow();
    await vi.waitFor(() => expect(pauses).toHaveLength(1));
    expect(stored).toEqual(['message.update:a']);
    expect(pauses[0]).toBeGreaterThan(0); // bounded
    void pipeline.push(update('m1', 'ab'));
    flushNow();
    void pipeline.push(update('m1', 'abc'));
    flushNow();
    await Promise.resolve();
    expect(stored).toEqual(['message.update:a']); // still reading: no write yet
    expect(given).toEqual(['a', 'ab', 'abc']); // the screen is not held back
    const done = pipeline.push(stop('m1', 'abc!'));
    expect(given.at(-1)).toBe('abc!');
    settle();
    await done;
    expect(stored).toEqual(['message.update:a', 'message.stop:abc!']);
  });

  it("gives a message.stop's final text at once, even while an earlier write is still in progress", async () => {
    const { pipeline, given, stored, release, flushNow } = textPipeline();
    void pipeline.push(update('m1', 'a'));
    flushNow();
    await Promise.resolve(); // its write has started (it waits for the disk)
    void pipeline.push(update('m1', 'ab')); // held: made obsolete by the stop
    const done = pipeline.push(stop('m1', 'ab!'));
    expect(given.at(-1)).toEqual(['m1', 'ab!']);
    release();
    await done;
    expect(stored).toEqual(['message.update:a', 'message.stop:ab!']);
    expect(given.at(-1)).toEqual(['m1', 'ab!']); // stored: nothing taken back
  });

  it('takes a text back when its write fails, and when its message is deleted', async () => {
    const failing = textPipeline({ failing: 'message.stop' });
    const done = failing.pipeline.push(stop('m1', 'final'));
    failing.release();
    await expect(done).rejects.toThrow('disk full');
    expect(failing.given).toEqual([
      ['m1', 'final'],
      ['m1', undefined],
    ]);

    const deleted = textPipeline();
    void deleted.pipeline.push(update('m2', 'draft'));
    deleted.flushNow();
    void deleted.pipeline.push({
      v: 1,
      type: 'message.deleted',
      chat_id: 'web:default',
      payload: { message_ids: ['m2'] },
    });
    expect(deleted.given).toEqual([
      ['m2', 'draft'],
      ['m2', undefined],
    ]);
    deleted.release();
  });

  it('a failed update write does not take back a newer text given since', async () => {
    const { pipeline, given, release, flushNow } = textPipeline({ failing: 'message.update' });
    const first = pipeline.push(update('m1', 'a'));
    flushNow();
    void pipeline.push(stop('m1', 'final')); // queued after the update; its text is the newest
    release();
    await first;
    await pipeline.flush();
    expect(given).toEqual([
      ['m1', 'a'],
      ['m1', 'final'],
    ]);
  });
});

describe('FramePipeline: the live cursor (spec README §16)', () => {
  const at = (type: string, cursor?: number, payload: object = {}): ServerFrame =>
    ({ v: 1, type, chat_id: 'a', ...(cursor !== undefined && { cursor }), payload }) as ServerFrame;

  /** Records every write as [types, cursor stored with it]; frames whose cursor is in `failing` fail to store. */
  function cursorPipeline(failing: Set<number> = new Set(), schedule: (run: () => void) => void = (run) => run()) {
    const writes: { types: string[]; cursor: number | undefined }[] = [];
    /** The frames' own cursors, in the order they were stored. */
    const order: (number | undefined)[] = [];
    let held = 0;
    let gate: Promise<void> | undefined;
    let release = () => {};
    const slowDown = () => {
      gate = new Promise<void>((r) => (release = r));
    };
    const fails = (f: ServerFrame) => f.cursor !== undefined && failing.has(f.cursor);
    const pipeline = new FramePipeline({
      apply: async (f, cursor) => {
        if (gate) await gate;
        if (fails(f)) throw new Error('QuotaExceededError');
        writes.push({ types: [f.type], cursor });
      },
      applyBatch: async (frames, cursor) => {
        if (gate) await gate;
        if (frames.some(fails)) throw new Error('QuotaExceededError');
        writes.push({ types: frames.map((f) => f.type), cursor });
        order.push(...frames.map((f) => f.cursor));
      },
      schedule,
      onError: () => {},
      onCursorHeld: () => held++,
    });
    /** The newest cursor stored so far (what the DB would hold). */
    const stored = () => Math.max(0, ...writes.map((w) => w.cursor ?? 0));
    return {
      pipeline,
      writes,
      order,
      stored,
      held: () => held,
      slowDown,
      release: () => {
        gate = undefined;
        release();
      },
    };
  }

  it('each write stores the newest cursor its frames carry, in the same write', async () => {
    const { pipeline, writes, slowDown, release } = cursorPipeline();
    await pipeline.push(at('agent.busy', 1));
    slowDown();
    const first = pipeline.push(at('message.start', 2, { message_id: 'm1', role: 'assistant' }));
    const rest = [
      pipeline.push(at('tool.start', 3, { index: 0, name: 't' })),
      pipeline.push(at('tool.end', 4, { index: 0, name: 't' })),
    ];
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([
      { types: ['agent.busy'], cursor: 1 },
      { types: ['message.start', 'tool.start', 'tool.end'], cursor: 4 },
    ]);
  });

  it('never passes a frame that failed to store, even when a group is retried frame by frame', async () => {
    const { pipeline, writes, stored, held, slowDown, release } = cursorPipeline(new Set([3]));
    await pipeline.push(at('agent.busy', 1));
    slowDown();
    const first = pipeline.push(at('message.start', 2, { message_id: 'm1', role: 'assistant' }));
    await Promise.resolve();
    // 3 fails inside a group: the group is retried one by one, and nothing after 3 stores a cursor.
    const group = [3, 4, 5].map((c) => pipeline.push(at('tool.start', c, { index: c, name: 't' })));
    release();
    await first;
    await expect(group[0]).rejects.toThrow('QuotaExceededError');
    await Promise.all(group.slice(1));
    await pipeline.push(at('agent.idle', 6));
    expect(writes.map((w) => w.cursor)).toEqual([1, 2, undefined, undefined, undefined]);
    expect(writes.slice(2).map((w) => w.types[0])).toEqual(['tool.start', 'tool.start', 'agent.idle']); // still applied
    expect(stored()).toBe(2);
    expect(held()).toBeGreaterThanOrEqual(1); // the failure, then each held write that carried a cursor
  });

  it('a held update stores no cursor and is never passed by one: updates are not outboxed', async () => {
    const { pipeline, writes } = cursorPipeline(new Set(), () => {}); // the animation frame never comes
    void pipeline.push(at('message.update', 7, { message_id: 'm1', text: 'one' }));
    await pipeline.push(at('tool.start', 8, { index: 0, name: 't' }));
    await pipeline.flush();
    expect(writes).toEqual([
      { types: ['tool.start'], cursor: 8 },
      { types: ['message.update'], cursor: undefined },
    ]);
  });

  it('a complete sync replay lifts the hold; a replay cut short stores no cursor and keeps it', async () => {
    const failing = new Set([2]);
    const { pipeline, writes, stored } = cursorPipeline(failing);
    await pipeline.push(at('agent.busy', 1));
    await expect(pipeline.push(at('message.start', 2, { message_id: 'm1', role: 'assistant' }))).rejects.toThrow();
    await pipeline.push(at('agent.idle', 3));
    expect(stored()).toBe(1);
    failing.clear(); // room again
    // Cut short: live frames that came before the replay carry newer cursors than the frames replayed.
    pipeline.beginBatch();
    void pipeline.push(at('typing', 9));
    void pipeline.push(at('message.start', 2, { message_id: 'm1', role: 'assistant' }));
    await pipeline.endBatch(undefined);
    await pipeline.push(at('typing', 10));
    expect(stored()).toBe(1);
    // Complete: stored with sync.done's cursor, and live frames store theirs again.
    pipeline.beginBatch();
    void pipeline.push(at('message.start', 2, { message_id: 'm1', role: 'assistant' }));
    void pipeline.push(at('agent.idle', 3));
    await pipeline.endBatch(10);
    await pipeline.push(at('typing', 11));
    expect(writes.slice(-2).map((w) => w.cursor)).toEqual([10, 11]);
  });

  it('after a replay that ended without sync.done (refused, cut), live frames store no cursor and ask for a sync', async () => {
    const { pipeline, writes, stored, held } = cursorPipeline();
    await pipeline.push(at('agent.busy', 1));
    // hello.ack said 9: frames 2..9 were never replayed; 10 arrives live after the failed sync.
    pipeline.beginBatch();
    await pipeline.endBatch(undefined);
    await pipeline.push(at('typing', 10));
    expect(stored()).toBe(1);
    expect(writes.at(-1)).toEqual({ types: ['typing'], cursor: undefined });
    expect(held()).toBe(1);
  });

  it("a long replay is stored in chunks while it arrives; only the last stores sync.done's cursor", async () => {
    const { pipeline, writes, order, stored } = cursorPipeline();
    pipeline.beginBatch();
    const n = REPLAY_CHUNK * 2 + 7;
    const pushes: Promise<void>[] = [];
    for (let c = 1; c <= REPLAY_CHUNK; c++) pushes.push(pipeline.push(at('typing', c)));
    // Before sync.done: the first chunk is stored already, with no cursor (a drop now replays it).
    await pushes[REPLAY_CHUNK - 1];
    expect(writes[0]).toEqual({ types: Array(REPLAY_CHUNK).fill('typing'), cursor: undefined });
    expect(stored()).toBe(0);
    for (let c = REPLAY_CHUNK + 1; c <= n; c++) pushes.push(pipeline.push(at('typing', c)));
    await pipeline.endBatch(n);
    await Promise.all(pushes);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.map((w) => w.cursor)).toEqual([...Array(writes.length - 1).fill(undefined), n]);
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('once sync.done has come, the rest of the replay is stored in chunks of the same size, in order', async () => {
    const { pipeline, writes, order, stored } = cursorPipeline();
    pipeline.beginBatch();
    // All of it arrives while the first chunk is being stored (a replay arrives faster than it is stored).
    const n = REPLAY_CHUNK * 2 + 5;
    const pushes: Promise<void>[] = [];
    for (let c = 1; c <= n; c++) pushes.push(pipeline.push(at('typing', c)));
    await pipeline.endBatch(n);
    await Promise.all(pushes);
    expect(writes.map((w) => w.types.length)).toEqual([REPLAY_CHUNK, REPLAY_CHUNK, 5]);
    expect(writes.map((w) => w.cursor)).toEqual([undefined, undefined, n]);
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(stored()).toBe(n);
  });

  it("a chunk of the replay that fails to store keeps sync.done's cursor from being stored, and asks for a sync", async () => {
    const failing = new Set([3]);
    const { pipeline, writes, stored, held } = cursorPipeline(failing);
    pipeline.beginBatch();
    const n = REPLAY_CHUNK + 10;
    for (let c = 1; c <= n; c++) void pipeline.push(at('typing', c)).catch(() => {});
    await pipeline.endBatch(n);
    // The frames after the lost chunk are stored, but the cursor stays before it: a sync brings it again.
    expect(writes.map((w) => w.types.length)).toEqual([10]);
    expect(stored()).toBe(0);
    expect(held()).toBe(1);
    await pipeline.push(at('typing', n + 1));
    expect(stored()).toBe(0);
    // The sync from there, with room: stored with its cursor.
    failing.clear();
    pipeline.beginBatch();
    for (let c = 1; c <= n; c++) void pipeline.push(at('typing', c));
    await pipeline.endBatch(n + 1);
    expect(stored()).toBe(n + 1);
  });

  it("a gateway that sends no cursor: live writes store none, the replay stores sync.done's", async () => {
    const { pipeline, writes } = cursorPipeline();
    pipeline.beginBatch();
    void pipeline.push(at('agent.busy'));
    await pipeline.endBatch(5);
    await pipeline.push(at('agent.idle'));
    expect(writes.map((w) => w.cursor)).toEqual([5, undefined]);
  });
});
