// How many of the screen's live queries (live.ts) are reading right now. A long run of writes (the sync
// catch-up) pauses between its chunks until they have landed: IndexedDB runs a read after any write that
// was queued before it, so chunks written back to back kept the lane's rows (read after its ids, each
// behind the next chunk) from ever showing until the whole catch-up was stored.
import Dexie from 'dexie';

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

// Held reads. While a long run of writes is stored (the sync catch-up, a chunk every few hundred ms), a
// live query re-read after every chunk, and each chunk's write waited behind those reads (IndexedDB runs
// a write after the reads queued before it): over a 10,000-frame catch-up, 3.8 s of 7.7 s (issue 17).
// Held, a live query that a write makes stale reads again only when the holder says the screen should
// show what is stored (wake: at a bounded interval), and when the hold ends. Only the holder's own
// writes are held: any other (the person's send, another tab's) wakes the stale queries at once.
let holds = 0;
let wakes = 0;
const wakers = new Set<() => void>();
/** The change sets (Dexie's `mutatedParts`) of the held writes' transactions. */
const heldChanges = new WeakSet<object>();
let wakeQueued = false;

/** Whether a live query made stale now should wait for a wake instead of reading again. */
export function liveReadsHeld(): boolean {
  return holds > 0;
}

/**
 * How many times the holder has woken the screen: a query whose last read began before the latest wake
 * reads when it is next told of a change, instead of sleeping. The holder wakes right after its write,
 * and Dexie may tell the live queries of that write only after (in a task of their own): not yet asleep,
 * they missed the wake, and slept through it (a catch-up's first chunk never showed until its end).
 */
export function liveReadsWakes(): number {
  return wakes;
}

/** Registers a live query's wake: it reads again if it went stale while held. */
export function onLiveReadsWake(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeAll(): void {
  for (const wake of [...wakers]) wake();
}

function wakeSoon(): void {
  if (wakeQueued) return;
  wakeQueued = true;
  // In a task of its own: a wake subscribes again, which must not happen inside a transaction's zone.
  setTimeout(() => {
    wakeQueued = false;
    wakeAll();
  }, 0);
}

// A change that is not one of the held writes' is shown as it happens. If Dexie stopped passing the
// transaction's own change set here, every change would look foreign: no hold, as before it existed.
Dexie.on('storagemutated', (parts) => {
  if (holds > 0 && !heldChanges.has(parts)) wakeSoon();
});

/**
 * Inside a held write's transaction, after its last write: its commit is one of the held writes, which
 * the screen reads at the next wake (not a change to show at once).
 */
export function markHeldWrite(): void {
  if (holds === 0) return;
  const parts = (Dexie.currentTransaction?.idbtrans as { mutatedParts?: unknown } | undefined)?.mutatedParts;
  if (typeof parts === 'object' && parts !== null) heldChanges.add(parts);
}

export interface LiveReadsHold {
  /** The stale queries read what is stored now (and the hold goes on). */
  wake(): void;
  /** Ends the hold (once): the stale queries read again. */
  release(): void;
}

/**
 * Holds the screen's live queries until `release()`. A hold not woken for `leaseMs` ends by itself (a
 * holder that failed to release must not leave the screen frozen); a wake after that holds again.
 */
export function holdLiveReads(leaseMs: number): LiveReadsHold {
  let holding = false;
  let lease: ReturnType<typeof setTimeout> | undefined;
  const end = () => {
    clearTimeout(lease);
    if (!holding) return;
    holding = false;
    holds -= 1;
    wakeSoon();
  };
  const renew = () => {
    clearTimeout(lease);
    if (!holding) {
      holding = true;
      holds += 1;
    }
    lease = setTimeout(end, leaseMs);
  };
  renew();
  return {
    wake() {
      renew();
      wakes += 1;
      wakeAll();
    },
    release: end,
  };
}
