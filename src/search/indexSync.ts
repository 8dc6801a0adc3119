// Keeps a LocalIndex in step with the messages table: a first build in chunks (yielding to the
// page between them so the UI never freezes), then updates from Dexie's `storagemutated` event,
// which reports the keys written by this page and by other tabs, after they commit.
import Dexie, { type IntervalTree, type IntervalTreeNode, type ObservabilitySet } from 'dexie';
import { yieldToPage as yieldToPageDefault } from '../lib/yieldToPage';
import type { IrisDB } from '../store/db';
import type { MessageRow } from '../store/schema';
import type { IndexableMessage, LocalIndex } from './localIndex';

export interface IndexSyncOptions {
  /** Messages read per chunk of the first build. */
  chunkSize?: number;
  /** How long changes are gathered before they are applied (ms). */
  batchDelayMs?: number;
  /** Gives the page a turn between chunks, and between slices of a chunk. */
  yieldToPage?: () => Promise<void>;
  /**
   * A chunk's rows are put in the index a slice at a time, each slice about this long (ms): a chunk
   * holding whole-file answers took one 45-120 ms task, a frame that long while a person scrolled.
   */
  sliceMs?: number;
  /**
   * A change Dexie reports as the whole table (a bulkPut of 50+ rows: a replay chunk, a history page)
   * re-reads the table once no such change came for this long (ms)...
   */
  rebuildQuietMs?: number;
  /** ...or at the latest this long after the first of them (ms). */
  rebuildMaxWaitMs?: number;
  /**
   * A row last read while streaming is read again only when its status changes, or once it has not been
   * written for this long (ms): it is not indexed before it is final, and each write of a streamed reply
   * (up to a 150 KB text, several a second) was read back whole for nothing.
   */
  streamQuietMs?: number;
}

export interface IndexSync {
  /** Resolves when the first build is done. */
  ready: Promise<void>;
  /** Resolves when changes reported so far are in the index. */
  flush(): Promise<void>;
  stop(): void;
}

/** Streaming replies change many times a second; they are indexed once final. */
function indexable(row: MessageRow | undefined): row is MessageRow {
  return !!row && row.status !== 'streaming' && typeof row.text === 'string' && row.text.length > 0;
}

function toIndexed(row: MessageRow): IndexableMessage {
  return { message_id: row.message_id, lane: row.lane, ts: row.ts, text: row.text };
}

export function syncIndexWithDb(index: LocalIndex, db: IrisDB, options: IndexSyncOptions = {}): IndexSync {
  const chunkSize = options.chunkSize ?? 2000;
  const sliceMs = options.sliceMs ?? 8;
  const batchDelayMs = options.batchDelayMs ?? 150;
  const yieldToPage = options.yieldToPage ?? yieldToPageDefault;
  const rebuildQuietMs = options.rebuildQuietMs ?? 1000;
  const rebuildMaxWaitMs = options.rebuildMaxWaitMs ?? 10_000;
  const streamQuietMs = options.streamQuietMs ?? 1000;
  const part = `idb://${db.name}/messages/`;
  // A write that changed a row's status, or deleted rows, has keys here (Dexie's observability parts).
  const statusPart = `idb://${db.name}/messages/status`;
  const deletedPart = `idb://${db.name}/messages/:dels`;

  let stopped = false;
  let building = true;
  let rebuildWanted = false;
  const changedKeys = new Set<string>();
  const changedRanges: { from: string; to: string }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let rebuildTimer: ReturnType<typeof setTimeout> | undefined;
  let rebuildFirstWanted: number | undefined;
  let applying: Promise<void> = Promise.resolve();
  /** Rows last read while streaming (a few: streams end), and the timers of those written since. */
  const streaming = new Set<string>();
  const quietTimers = new Map<string, ReturnType<typeof setTimeout>>();

  /** A streaming row was written again (its text grew): read once it has been quiet for a while. */
  function holdStreaming(key: string) {
    clearTimeout(quietTimers.get(key));
    quietTimers.set(
      key,
      setTimeout(() => {
        quietTimers.delete(key);
        changedKeys.add(key);
        if (!building) schedule();
      }, streamQuietMs),
    );
  }

  function releaseHeld() {
    for (const [key, quiet] of quietTimers) {
      clearTimeout(quiet);
      changedKeys.add(key);
    }
    quietTimers.clear();
    if (!building) schedule();
  }

  function noteStreaming(id: string, row: MessageRow | undefined) {
    if (row?.status !== 'streaming') streaming.delete(id);
    else if (streaming.size < 100) streaming.add(id);
  }

  function onMutated(parts: ObservabilitySet) {
    const tree = parts[part];
    if (!tree || stopped) return;
    const statusChanged = hasKeys(parts[statusPart]) || hasKeys(parts[deletedPart]);
    for (const node of walk(tree)) {
      if (node.from === node.to && typeof node.from === 'string') {
        if (streaming.has(node.from) && !statusChanged) holdStreaming(node.from);
        else {
          clearTimeout(quietTimers.get(node.from));
          quietTimers.delete(node.from);
          changedKeys.add(node.from);
        }
      } else if (isWholeTable(node)) rebuildWanted = true;
      else changedRanges.push({ from: node.from as string, to: node.to as string });
    }
    if (building) return;
    if (rebuildWanted) scheduleRebuild();
    if (changedKeys.size > 0 || changedRanges.length > 0) schedule();
  }

  function schedule() {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      applying = applying.then(applyChanges, applyChanges);
    }, batchDelayMs);
  }

  /**
   * A catch-up stores its replay in chunks, each reported as the whole table: one re-read after the
   * last of them, not one per chunk (each re-read walks every message).
   */
  function scheduleRebuild() {
    const now = Date.now();
    rebuildFirstWanted ??= now;
    if (rebuildTimer !== undefined) clearTimeout(rebuildTimer);
    const wait = Math.max(0, Math.min(rebuildQuietMs, rebuildFirstWanted + rebuildMaxWaitMs - now));
    rebuildTimer = setTimeout(startRebuild, wait);
  }

  function startRebuild() {
    if (rebuildTimer !== undefined) clearTimeout(rebuildTimer);
    rebuildTimer = undefined;
    rebuildFirstWanted = undefined;
    applying = applying.then(rebuild, rebuild);
  }

  /**
   * Reads the whole table again into the index as it is: unchanged texts cost no new postings, and
   * what is gone is removed at the end, so a search meanwhile still finds everything it found before.
   */
  async function rebuild(): Promise<void> {
    if (stopped || !rebuildWanted) return;
    rebuildWanted = false;
    changedKeys.clear();
    changedRanges.length = 0;
    const seen = new Set<string>();
    await build(seen);
    if (stopped) return;
    index.remove([...index.ids()].filter((id) => !seen.has(id)));
  }

  async function applyChanges(): Promise<void> {
    if (stopped) return;
    const keys = [...changedKeys];
    changedKeys.clear();
    const ranges = changedRanges.splice(0);
    if (keys.length > 0) {
      const rows = await db.messages.bulkGet(keys);
      if (stopped) return; // stopped while reading: the index stays as it was
      keys.forEach((key, i) => noteStreaming(key, rows[i]));
      index.add(rows.filter(indexable).map(toIndexed));
      index.remove(keys.filter((_, i) => !indexable(rows[i])));
    }
    for (const range of ranges) {
      const rows = await db.messages.where(':id').between(range.from, range.to, true, true).toArray();
      if (stopped) return;
      const present = new Set(rows.filter(indexable).map((r) => r.message_id));
      index.add(rows.filter(indexable).map(toIndexed));
      const gone: string[] = [];
      for (const id of index.ids()) {
        if (!present.has(id) && id >= range.from && id <= range.to) gone.push(id);
      }
      index.remove(gone);
    }
  }

  /** Reads the table in primary-key order, a chunk per transaction, yielding between chunks. */
  async function build(seen?: Set<string>): Promise<void> {
    building = true;
    let lastKey: string | undefined;
    for (;;) {
      if (stopped) return;
      const chunk: MessageRow[] =
        lastKey === undefined
          ? await db.messages.orderBy(':id').limit(chunkSize).toArray()
          : await db.messages.where(':id').above(lastKey).limit(chunkSize).toArray();
      if (stopped) return;
      if (chunk.length === 0) break;
      let sliceStart = performance.now();
      for (const row of chunk) {
        noteStreaming(row.message_id, row);
        if (!indexable(row)) continue;
        index.add([toIndexed(row)]);
        seen?.add(row.message_id);
        if (performance.now() - sliceStart >= sliceMs) {
          await yieldToPage();
          if (stopped) return;
          sliceStart = performance.now();
        }
      }
      lastKey = chunk[chunk.length - 1].message_id;
      if (chunk.length < chunkSize) break;
      await yieldToPage();
    }
    building = false;
    // Writes that landed during the build may have been read before they happened: re-apply them.
    if (changedKeys.size > 0 || changedRanges.length > 0) schedule();
    if (rebuildWanted) scheduleRebuild();
  }

  Dexie.on.storagemutated.subscribe(onMutated);
  const ready = build();
  applying = ready;

  return {
    ready,
    async flush() {
      await ready;
      // A build or re-read in progress schedules what it saw change meanwhile when it ends: wait for that too.
      for (;;) {
        if (rebuildTimer !== undefined) startRebuild();
        if (quietTimers.size > 0) releaseHeld();
        if (timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
          applying = applying.then(applyChanges, applyChanges);
        }
        const pending = applying;
        await pending;
        if (stopped || (pending === applying && rebuildTimer === undefined && timer === undefined)) return;
      }
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (rebuildTimer !== undefined) clearTimeout(rebuildTimer);
      for (const timer of quietTimers.values()) clearTimeout(timer);
      Dexie.on.storagemutated.unsubscribe(onMutated);
    },
  };
}

/** Whether a part of a mutation set holds any key (Dexie makes a part for every index it looked at). */
function hasKeys(tree: IntervalTree | undefined): boolean {
  return !!tree && 'from' in tree;
}

/** Message ids are strings: a range with another bound (−Infinity, Dexie's MAX_KEY) is a clear(). */
function isWholeTable(node: IntervalTreeNode): boolean {
  return typeof node.from !== 'string' || typeof node.to !== 'string';
}

/** The ranges of an interval tree, in order (Dexie's RangeSet is an AVL tree of {from, to, l, r}). */
function* walk(tree: IntervalTree): Generator<IntervalTreeNode> {
  if (!('from' in tree)) return;
  if (tree.l) yield* walk(tree.l);
  yield { from: tree.from, to: tree.to, d: tree.d };
  if (tree.r) yield* walk(tree.r);
}
