// A frame the disk has no room for must not be lost: downloaded media (which can be fetched again)
// makes room first, the person is told, and the frame is stored on a second try. Only when no media
// is left to evict does the write fail (and the pipeline reports it).
import { withQuotaRetry } from '../media/eviction';
import type { Reducer } from '../net/session';

/** `reducer`, with media evicted and the write retried once when storage is full. */
export function evictingMediaWhenFull(reducer: Reducer): Reducer {
  return {
    apply: (db, frame, ctx) => withQuotaRetry(db, () => reducer.apply(db, frame, ctx)),
    applyBatch: (db, frames, ctx) => withQuotaRetry(db, () => reducer.applyBatch(db, frames, ctx)),
  };
}
