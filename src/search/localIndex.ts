// An in-memory inverted index of cached messages, for searching while offline (issue 4 "Search").
// Terms map to posting lists of (document, hits); a query is the AND of its terms with the last
// one matched as a prefix, ranked by hits and then by recency. Removal marks a document dead and
// the lists are compacted once dead entries pile up, so updates stay cheap.
import { queryTerms, tokenize } from './tokenize';

/** What the index needs of a message. */
export interface IndexableMessage {
  message_id: string;
  lane: string;
  ts: number;
  text: string;
}

interface LocalHit {
  message_id: string;
  lane: string;
  ts: number;
  /** How many times the query's terms occur in the message. */
  hits: number;
}

interface LocalSearchOptions {
  /** Only this lane. */
  lane?: string;
  /** At most this many hits (default 50). */
  limit?: number;
}

export interface LocalIndex {
  /** Adds messages, or re-indexes them if already present (text edited, stream finished). */
  add(rows: readonly IndexableMessage[]): void;
  remove(ids: readonly string[]): void;
  search(query: string, options?: LocalSearchOptions): LocalHit[];
  has(id: string): boolean;
  /** Ids of the indexed messages. */
  ids(): IterableIterator<string>;
  clear(): void;
  /** Number of indexed messages. */
  readonly size: number;
}

// A posting packs a document number and its hit count (capped) into one small integer.
const HIT_BITS = 8;
const MAX_HITS = (1 << HIT_BITS) - 1;
const HIT_MASK = MAX_HITS;
/** Document numbers must fit in the remaining bits of a positive 31-bit integer. */
const MAX_DOCS = 1 << (31 - HIT_BITS);
/** Characters of one message that are indexed (the gateway's own search still sees all of it). */
const MAX_INDEXED_CHARS = 64_000;
/** New terms wait in a small unsorted list, merged into the sorted one in batches (bigger as it grows). */
const PENDING_TERMS_MERGE = 1024;
/** ts is clamped to this to pack (hits, ts) in one double for ranking. */
const TS_SPAN = 2 ** 42;

export function createLocalIndex(): LocalIndex {
  let postings = new Map<string, number[]>();
  let sortedTerms: string[] = [];
  let pendingTerms: string[] = [];

  // Per document, by number.
  let docIds: string[] = [];
  let docLane: number[] = [];
  let docTs: number[] = [];
  let docAlive: boolean[] = [];
  let docFingerprint: number[] = [];
  let idToDoc = new Map<string, number>();
  let deadCount = 0;

  let laneNumbers = new Map<string, number>();
  let laneNames: string[] = [];

  // Scratch space for queries: marks[d] says how many term groups document d has matched (as an epoch offset).
  let marks = new Int32Array(0);
  let scores = new Int32Array(0);
  let epoch = 0;

  function laneNumber(lane: string): number {
    let n = laneNumbers.get(lane);
    if (n === undefined) {
      n = laneNames.length;
      laneNames.push(lane);
      laneNumbers.set(lane, n);
    }
    return n;
  }

  function mergePendingTerms() {
    if (pendingTerms.length === 0) return;
    const added = pendingTerms.sort();
    pendingTerms = [];
    const merged = new Array<string>(sortedTerms.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < sortedTerms.length && j < added.length) {
      merged[k++] = sortedTerms[i] < added[j] ? sortedTerms[i++] : added[j++];
    }
    while (i < sortedTerms.length) merged[k++] = sortedTerms[i++];
    while (j < added.length) merged[k++] = added[j++];
    sortedTerms = merged;
  }

  function kill(doc: number) {
    if (!docAlive[doc]) return;
    docAlive[doc] = false;
    idToDoc.delete(docIds[doc]);
    deadCount++;
  }

  function addOne(row: IndexableMessage) {
    const fingerprint = fingerprintOf(row.text);
    const existing = idToDoc.get(row.message_id);
    if (existing !== undefined) {
      if (docFingerprint[existing] === fingerprint) {
        // Same text (a status change, a read receipt): no new postings.
        docLane[existing] = laneNumber(row.lane);
        docTs[existing] = row.ts;
        return;
      }
      kill(existing);
    }
    if (docIds.length >= MAX_DOCS) compact();
    const doc = docIds.length;
    docIds.push(row.message_id);
    docLane.push(laneNumber(row.lane));
    docTs.push(row.ts);
    docAlive.push(true);
    docFingerprint.push(fingerprint);
    idToDoc.set(row.message_id, doc);

    // Repeats of a term within the document bump the hit count of its last posting.
    const first = doc * (MAX_HITS + 1) + 1;
    // A message that is a whole file or log is indexed by its start: all of it was one long task.
    const text = row.text.length > MAX_INDEXED_CHARS ? row.text.slice(0, MAX_INDEXED_CHARS) : row.text;
    for (const term of tokenize(text)) {
      const list = postings.get(term);
      if (!list) {
        postings.set(term, [first]);
        pendingTerms.push(term);
        if (pendingTerms.length >= PENDING_TERMS_MERGE + (sortedTerms.length >> 2)) mergePendingTerms();
      } else {
        const last = list.length - 1;
        const posting = list[last];
        if (posting >>> HIT_BITS !== doc) list.push(first);
        else if ((posting & HIT_MASK) < MAX_HITS) list[last] = posting + 1;
      }
    }
  }

  /** Drops dead documents and renumbers the living ones. */
  function compact() {
    const renumber = new Int32Array(docIds.length).fill(-1);
    const ids: string[] = [];
    const lanes: number[] = [];
    const ts: number[] = [];
    const fingerprints: number[] = [];
    for (let d = 0; d < docIds.length; d++) {
      if (!docAlive[d]) continue;
      renumber[d] = ids.length;
      ids.push(docIds[d]);
      lanes.push(docLane[d]);
      ts.push(docTs[d]);
      fingerprints.push(docFingerprint[d]);
    }
    const next = new Map<string, number[]>();
    for (const [term, list] of postings) {
      const kept: number[] = [];
      for (const posting of list) {
        const to = renumber[posting >>> HIT_BITS];
        if (to >= 0) kept.push(to * (MAX_HITS + 1) + (posting & HIT_MASK));
      }
      if (kept.length > 0) next.set(term, kept);
    }
    postings = next;
    sortedTerms = sortedTerms.filter((term) => next.has(term));
    pendingTerms = pendingTerms.filter((term) => next.has(term));
    docIds = ids;
    docLane = lanes;
    docTs = ts;
    docFingerprint = fingerprints;
    docAlive = ids.map(() => true);
    idToDoc = new Map(ids.map((id, d) => [id, d]));
    deadCount = 0;
  }

  function maybeCompact() {
    if (deadCount > 4096 && deadCount > docIds.length / 2) compact();
  }

  /** Posting lists of the terms starting with `prefix`. */
  function prefixLists(prefix: string): number[][] {
    if (pendingTerms.length > 64) mergePendingTerms();
    const lists: number[][] = [];
    let lo = 0;
    let hi = sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sortedTerms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sortedTerms.length && sortedTerms[i].startsWith(prefix); i++) {
      lists.push(postings.get(sortedTerms[i])!);
    }
    for (const term of pendingTerms) if (term.startsWith(prefix)) lists.push(postings.get(term)!);
    return lists;
  }

  function ensureScratch() {
    if (marks.length < docIds.length) {
      const size = Math.max(1024, docIds.length * 2);
      marks = new Int32Array(size);
      scores = new Int32Array(size);
      epoch = 0;
    }
  }

  function search(query: string, options: LocalSearchOptions = {}): LocalHit[] {
    const limit = options.limit ?? 50;
    const { exact, prefix } = queryTerms(query);
    if (prefix === undefined || limit <= 0) return [];
    const laneFilter = options.lane === undefined ? -1 : laneNumbers.get(options.lane);
    if (laneFilter === undefined) return [];

    // One group of posting lists per term; a document must appear in every group.
    const groups: number[][][] = [];
    for (const term of exact) {
      const list = postings.get(term);
      if (!list) return [];
      groups.push([list]);
    }
    const last = prefixLists(prefix);
    if (last.length === 0) return [];
    groups.push(last);
    // Smallest group first: later groups only confirm documents it found.
    const sizes = groups.map((g) => g.reduce((n, l) => n + l.length, 0));
    const order = groups.map((_, i) => i).sort((a, b) => sizes[a] - sizes[b]);

    ensureScratch();
    if (epoch > 2 ** 30) {
      marks.fill(0);
      epoch = 0;
    }
    const base = epoch + 1;
    epoch = base + groups.length + 1;

    for (let g = 0; g < order.length; g++) {
      const before = base + g - 1;
      const after = base + g;
      for (const list of groups[order[g]]) {
        for (let i = 0; i < list.length; i++) {
          const posting = list[i];
          const doc = posting >>> HIT_BITS;
          const mark = marks[doc];
          if (g === 0 ? mark < base : mark === before) {
            marks[doc] = after;
            scores[doc] = g === 0 ? posting & HIT_MASK : scores[doc] + (posting & HIT_MASK);
          } else if (mark === after) {
            // Another term of the same prefix group in the same document.
            scores[doc] += posting & HIT_MASK;
          }
        }
      }
    }

    // Collect the documents that matched every group, keeping the best `limit` in a min-heap.
    const matched = base + groups.length - 1;
    const heapKeys: number[] = [];
    const heapDocs: number[] = [];
    for (const list of groups[order[0]]) {
      for (let i = 0; i < list.length; i++) {
        const doc = list[i] >>> HIT_BITS;
        if (marks[doc] !== matched) continue;
        marks[doc] = matched + 1; // seen
        if (!docAlive[doc]) continue;
        if (laneFilter >= 0 && docLane[doc] !== laneFilter) continue;
        const key = scores[doc] * TS_SPAN + Math.min(Math.max(docTs[doc], 0), TS_SPAN - 1);
        if (heapKeys.length < limit) heapPush(heapKeys, heapDocs, key, doc);
        else if (key > heapKeys[0]) heapReplaceTop(heapKeys, heapDocs, key, doc);
      }
    }

    const found = heapDocs.map((doc, i) => ({ doc, key: heapKeys[i] }));
    found.sort((a, b) => b.key - a.key);
    return found.map(({ doc }) => ({
      message_id: docIds[doc],
      lane: laneNames[docLane[doc]],
      ts: docTs[doc],
      hits: scores[doc],
    }));
  }

  return {
    add(rows) {
      for (const row of rows) addOne(row);
      maybeCompact();
    },
    remove(ids) {
      for (const id of ids) {
        const doc = idToDoc.get(id);
        if (doc !== undefined) kill(doc);
      }
      maybeCompact();
    },
    search,
    has: (id) => idToDoc.has(id),
    ids: () => idToDoc.keys(),
    clear() {
      postings = new Map();
      sortedTerms = [];
      pendingTerms = [];
      docIds = [];
      docLane = [];
      docTs = [];
      docAlive = [];
      docFingerprint = [];
      idToDoc = new Map();
      deadCount = 0;
      laneNumbers = new Map();
      laneNames = [];
    },
    get size() {
      return idToDoc.size;
    },
  };
}

/** FNV-1a of the text: tells whether a re-added message's text changed. */
function fingerprintOf(text: string): number {
  let hash = 0x811c9dc5 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function heapPush(keys: number[], docs: number[], key: number, doc: number) {
  let i = keys.length;
  keys.push(key);
  docs.push(doc);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (keys[parent] <= key) break;
    keys[i] = keys[parent];
    docs[i] = docs[parent];
    i = parent;
  }
  keys[i] = key;
  docs[i] = doc;
}

function heapReplaceTop(keys: number[], docs: number[], key: number, doc: number) {
  const n = keys.length;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && keys[right] < keys[left] ? right : left;
    if (keys[child] >= key) break;
    keys[i] = keys[child];
    docs[i] = docs[child];
    i = child;
  }
  keys[i] = key;
  docs[i] = doc;
}
