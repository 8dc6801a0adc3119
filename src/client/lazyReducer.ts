// A reducer whose code loads when first needed: the store's reducer (every frame type's rules)
// comes with the session code (whose frame pipeline orders writes by those rules), never with the
// app's first screen.
import type { Reducer } from '../net/session';

export function lazyReducer(load: () => Promise<Reducer>): Reducer {
  let loading: Promise<Reducer> | undefined;
  const reducer = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed chunk load (offline mid-update) is tried again with the next frame
      throw error;
    }));
  return {
    apply: async (db, frame, ctx) => (await reducer()).apply(db, frame, ctx),
    applyBatch: async (db, frames, ctx) => (await reducer()).applyBatch(db, frames, ctx),
  };
}
