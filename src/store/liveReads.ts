// How many of the screen's live queries (live.ts) are reading right now. A long run of writes (the sync
// catch-up) pauses between its chunks until they have landed: IndexedDB runs a read after any write that
// was queued before it, so chunks written back to back kept the lane's rows (read after its ids, each
// behind the next chunk) from ever showing until the whole catch-up was stored.
let reading = 0;
const wake: (() => void)[] = [];

/** Counts a read as in flight; call the returned function once when it has settled. */
export function readStarted(): () => void {
  reading += 1;
  return () => {
    reading -= 1;
    // Woken in a task of their own: a read ends inside its liveQuery's Dexie zone, and a waiter resumed
    // in that microtask (or Dexie's echoes of it) would start its next write there, which Dexie refuses
    // ("Readwrite transaction in liveQuery context": a replay chunk was lost so, under load).
    if (reading === 0 && wake.length > 0)
      setTimeout(() => {
        for (const w of wake.splice(0)) w();
      }, 0);
  };
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once no live query has been reading for a whole task (a query that starts from another's
 * result, as the rows from the ids, starts within that task), or after `maxMs` whatever they do.
 */
export async function liveReadsSettled(maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    if (reading === 0) {
      await macrotask();
      if (reading === 0) return;
    }
    const left = deadline - Date.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      wake.push(() => {
        clearTimeout(timer);
        // The last read settles inside its live query, and Dexie carries a query's zone on to whatever
        // runs in the microtasks after it: resumed there, the waiter's next write failed as a write
        // "in liveQuery context" (the catch-up lost that chunk and synced the whole replay again).
        setTimeout(resolve, 0);
      });
    });
  }
}

/** For tests: the count of reads in flight. */
export function readsInFlight(): number {
  return reading;
}
