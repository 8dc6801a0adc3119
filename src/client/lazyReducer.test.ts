import { describe, expect, it } from 'vitest';
import type { Reducer } from '../net/session';
import type { ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import { lazyReducer } from './lazyReducer';

const db = {} as IrisDB;
const frame = { v: 1, type: 'pong', payload: {} } as unknown as ServerFrame;
const ctx = {} as Parameters<Reducer['apply']>[2];

function recording(): { reducer: Reducer; applied: string[] } {
  const applied: string[] = [];
  return {
    applied,
    reducer: {
      apply: async (_db, f) => void applied.push(`one:${f.type}`),
      applyBatch: async (_db, frames) => void applied.push(`batch:${frames.length}`),
    },
  };
}

describe('lazyReducer', () => {
  it('loads the reducer once, with the first frame, and applies every frame through it in order', async () => {
    const inner = recording();
    let loads = 0;
    const reducer = lazyReducer(async () => {
      loads++;
      return inner.reducer;
    });
    expect(loads).toBe(0);
    await Promise.all([reducer.apply(db, frame, ctx), reducer.applyBatch(db, [frame, frame], ctx)]);
    await reducer.apply(db, frame, ctx);
    expect(loads).toBe(1);
    expect(inner.applied).toEqual(['one:pong', 'batch:2', 'one:pong']);
  });

  it('passes a failed load on to the frame, and tries again with the next one', async () => {
    const inner = recording();
    let loads = 0;
    const reducer = lazyReducer(async () => {
      if (++loads === 1) throw new Error('chunk failed to load');
      return inner.reducer;
    });
    await expect(reducer.apply(db, frame, ctx)).rejects.toThrow('chunk failed to load');
    await reducer.apply(db, frame, ctx);
    expect(loads).toBe(2);
    expect(inner.applied).toEqual(['one:pong']);
  });
});
