// A reducer whose code loads with the first frame to apply: the store's reducer (every frame type's
// rules) is not needed until a gateway answers, so the pairing screen goes without it.
import type { Reducer } from '../net/session';

export function lazyReducer(load: () => Promise<Reducer>): Reducer {
  let loading: Promise<Reducer> | undefined;
  const reducer = () => (loading ??= load().catch((error: unknown) => {
    loading = undefined; // a failed chunk load (offline mid-update) is tried again with the next frame
    throw error;
  }));
  return {
    apply: async (db, frame, ctx) => (await reducer()).apply(db, frame, ctx),
    applyBatch: async (db, frames, ctx) => (await reducer()).applyBatch(db, frames, ctx),
  };
}
