// The tables a batch of frames is reduced through (a sync replay): reads come from memory once a
// row is known, writes are buffered, and the end of the batch writes each table's changed rows
// with one bulkPut and one bulkDelete. Applied one by one, every frame of a replay cost its own
// sequential IndexedDB reads and writes (most rewriting the same lane row), and the main thread
// waited on ~25,000 of them.
//
// The handlers see the same state either way: a row read is the newest written in the batch, or
// the stored one (read through and kept). An index query is answered from memory only once every
// stored row that can match it has been loaded (`load`: one anyOf query for the values asked, or
// prefetched for the whole batch), so rows changed in memory and rows only on disk are never mixed
// up. Anything else a handler asks of a table throws OverlayUnsupported: the caller applies the
// batch frame by frame instead, so a rule that needs more never gets a wrong answer.
import Dexie, { type Collection, type Table } from 'dexie';
import type { IrisDB } from '../db';

type Row = Record<string, unknown>;
type Key = string | number;

/** A range of primary keys, both ends included; an end left out is open (no end: the whole table). */
export interface KeyRange {
  lower?: Key;
  upper?: Key;
}

function inRange(key: Key, { lower, upper }: KeyRange): boolean {
  return (lower === undefined || compareKeys(lower, key) <= 0) && (upper === undefined || compareKeys(key, upper) <= 0);
}

/** A handler asked for something the overlay does not serve (a range, an ordering, a whole table). */
export class OverlayUnsupported extends Error {
  constructor(what: string) {
    super(`the batch overlay does not serve ${what}`);
    this.name = 'OverlayUnsupported';
  }
}

/**
 * A deep copy of a row, as IndexedDB would store and return it: plain objects and arrays are copied
 * here (a replay copies rows tens of thousands of times, and structuredClone cost several µs each);
 * anything else in a row (a Blob, a Date…) is copied by structuredClone.
 */
function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
  return out as T;
}

/** Dexie's modify(): an object of changes (key paths) or a function that changes the row in place. */
type Changes = Row | ((row: Row, ctx: { value: Row | undefined }) => boolean | void);

/** Applies `changes` to `row` as Dexie's modify() does; returns the row to store, null to delete, or false (no change). */
function modified(row: Row, changes: Changes): Row | null | false {
  const next = copy(row);
  if (typeof changes === 'function') {
    const ctx: { value: Row | undefined } = { value: next };
    if (changes.call(ctx, next, ctx) === false) return false;
    return ctx.value ?? null;
  }
  let changed = false;
  for (const [path, value] of Object.entries(changes)) {
    if (Dexie.getByKeyPath(next, path) === value) continue;
    Dexie.setByKeyPath(next, path, value);
    changed = true;
  }
  return changed ? next : false;
}

class OverlayTable {
  /** Rows known in this batch by primary key: the row, or null when there is none. */
  private readonly rows = new Map<Key, Row | null>();
  private readonly dirty = new Set<Key>();
  /**
   * Per index a query asked for: the keys of the known rows by their value in it, kept as rows change
   * (scanning every known row per query made a large batch quadratic).
   */
  private readonly byIndex = new Map<string, Map<unknown, Set<Key>>>();
  /** `index\0value` pairs whose stored rows are all in `rows`. */
  private readonly covered = new Set<string>();
  private readonly keyPath: string;
  /** What a key says about its row's index value (BatchOverlay.keyImplies). */
  private implied: { index: string; valuesOf: (key: Key) => readonly Key[] } | undefined;
  /** Every row read from the table, as it was read (null: none), for `unchanged()`. */
  private readonly stored = new Map<Key, Row | null>();
  /**
   * Primary-key ranges whose stored keys are all known: every row (loadRange; `keys` undefined), or
   * every key (byKeys). A key in one that is not among them is absent.
   */
  private readonly ranges: { range: KeyRange; keys?: ReadonlySet<Key> }[] = [];
  /** Every query sent to the table (by index values or by a range of keys), with the keys of the rows it found. */
  private readonly queried: { keysNow: () => Promise<Key[]>; keys: Key[] }[] = [];

  constructor(readonly real: Table) {
    if (!OverlayTable.serves(real)) throw new OverlayUnsupported(`table ${real.name}`);
    this.keyPath = real.schema.primKey.keyPath as string;
  }

  /** Whether rows of `table` can be held: keyed by one property, not by an auto-incremented number. */
  static serves(table: Table): boolean {
    return typeof table.schema.primKey.keyPath === 'string' && !table.schema.primKey.auto;
  }

  private setRow(key: Key, row: Row | null): void {
    if (this.byIndex.size) {
      const old = this.rows.get(key);
      for (const [index, keys] of this.byIndex) {
        if (old) keysWith(keys, valueAt(old, index)).delete(key);
        if (row) keysWith(keys, valueAt(row, index)).add(key);
      }
    }
    this.rows.set(key, row);
  }

  /** The known rows' keys by their value of `index` (built on first use, then kept up to date). */
  private indexed(index: string): Map<unknown, Set<Key>> {
    let keys = this.byIndex.get(index);
    if (!keys) {
      keys = new Map();
      for (const [key, row] of this.rows) if (row) keysWith(keys, valueAt(row, index)).add(key);
      this.byIndex.set(index, keys);
    }
    return keys;
  }

  private keyOf(row: Row): Key {
    const key = row[this.keyPath];
    if (typeof key !== 'string' && typeof key !== 'number') throw new OverlayUnsupported(`a row without its key`);
    return key;
  }

  private remember(row: Row): void {
    const key = this.keyOf(row);
    if (this.rows.has(key)) return;
    this.setRow(key, row);
    this.stored.set(key, row);
  }

  /** Keeps a row read by key (the first read of it: what the batch's result was built on). */
  private read(key: Key, row: Row | undefined): Row | null {
    if (!this.stored.has(key)) this.stored.set(key, row ?? null);
    return row ?? null;
  }

  /** Loads the stored rows whose `index` is one of `values` (once per value), for queries served from memory. */
  async load(index: string, values: readonly Key[]): Promise<void> {
    if (index === ':id' || index === this.keyPath) {
      if (!(await this.byKeys(values))) await this.bulkGet(values);
      return;
    }
    if (!this.real.schema.idxByName[index] || index.startsWith('[')) throw new OverlayUnsupported(`index ${index}`);
    const missing = [...new Set(values)].filter((v) => !this.covered.has(`${index}\0${v}`));
    if (missing.length === 0) return;
    const found = (await this.real.where(index).anyOf(missing).toArray()) as Row[];
    const keysNow = () => this.real.where(index).anyOf(missing).primaryKeys() as Promise<Key[]>;
    this.queried.push({ keysNow, keys: found.map((row) => this.keyOf(row)) });
    for (const row of found) this.remember(row);
    for (const v of missing) this.covered.add(`${index}\0${v}`);
  }

  /**
   * Loads every stored row whose key is in `range` with one request, so a key there that no row has is
   * known to be absent without a request of its own (and its absence is checked by one query again).
   */
  async loadRange(range: KeyRange): Promise<void> {
    const found = (await this.inRange(range).toArray()) as Row[];
    this.queried.push({
      keysNow: () => this.inRange(range).primaryKeys() as Promise<Key[]>,
      keys: found.map((row) => this.keyOf(row)),
    });
    for (const row of found) this.remember(row);
    this.ranges.push({ range });
  }

  private inRange({ lower, upper }: KeyRange): Collection<Row, Key> {
    const table = this.real as Table<Row, Key>;
    if (lower !== undefined && upper !== undefined) return table.where(':id').between(lower, upper, true, true);
    if (lower !== undefined) return table.where(':id').aboveOrEqual(lower);
    if (upper !== undefined) return table.where(':id').belowOrEqual(upper);
    return table.toCollection();
  }

  /**
   * Loads the rows of many keys with two requests instead of one per key, when the table holds few
   * keys between the least and the greatest of them: the keys stored there (one request, its length
   * bounded), then the rows of those asked for that are among them. Most keys a replay asks for have
   * no row yet (its new messages), and each absent key cost a request, in the reduce and in the check
   * before the write. Returns false (nothing loaded) when the range holds too many keys.
   */
  private async byKeys(values: readonly Key[]): Promise<boolean> {
    const wanted = [...new Set(values)].filter((k) => !this.known(k)).sort(compareKeys);
    if (wanted.length < BY_KEYS_FROM || crowded.has(this.real)) return false;
    const range = { lower: wanted[0]!, upper: wanted.at(-1)! };
    const limit = Math.max(BY_KEYS_LIMIT, BY_KEYS_PER_KEY * wanted.length);
    const keys = (await this.inRange(range).limit(limit).primaryKeys()) as Key[];
    if (keys.length >= limit) {
      // Most likely a large table (random ids spread over all of it): one key at a time from now on.
      crowded.add(this.real);
      return false;
    }
    const stored = new Set(keys);
    this.queried.push({ keysNow: () => this.inRange(range).primaryKeys() as Promise<Key[]>, keys });
    this.ranges.push({ range, keys: stored });
    await this.bulkGet(wanted.filter((k) => stored.has(k)));
    return true;
  }

  keyImplies(index: string, valuesOf: (key: Key) => readonly Key[]): void {
    this.implied = { index, valuesOf };
  }

  /**
   * Whether the key has a row in memory (none counts: read, or known, as absent). A key no known row
   * has is known absent when it lies in a range whose stored keys are all known and is not among them,
   * or when its row would have one of the index values its key implies and every stored row with those
   * values is known; it is then remembered as none, with no request.
   */
  private known(key: Key): boolean {
    if (this.rows.has(key)) return true;
    if (!this.ranges.some(({ range, keys }) => inRange(key, range) && !keys?.has(key)) && !this.impliedAbsent(key))
      return false;
    this.setRow(key, null);
    return true;
  }

  private impliedAbsent(key: Key): boolean {
    if (!this.implied) return false;
    const { index, valuesOf } = this.implied;
    const values = valuesOf(key);
    return values.length > 0 && values.every((v) => this.covered.has(`${index}\0${v}`));
  }

  async get(key: Key): Promise<Row | undefined> {
    if (typeof key === 'object') throw new OverlayUnsupported('get by criteria');
    if (!this.known(key)) this.setRow(key, this.read(key, (await this.real.get(key)) as Row | undefined));
    return copy(this.rows.get(key)) ?? undefined;
  }

  async bulkGet(keys: readonly Key[]): Promise<(Row | undefined)[]> {
    const missing = [...new Set(keys.filter((k) => !this.known(k)))];
    if (missing.length) {
      const found = (await this.real.bulkGet(missing)) as (Row | undefined)[];
      missing.forEach((k, i) => this.setRow(k, this.read(k, found[i])));
    }
    return keys.map((k) => copy(this.rows.get(k)) ?? undefined);
  }

  put(row: Row): Promise<Key> {
    const key = this.keyOf(row);
    this.setRow(key, copy(row));
    this.dirty.add(key);
    return Promise.resolve(key);
  }

  async bulkPut(rows: readonly Row[]): Promise<void> {
    for (const row of rows) await this.put(row);
  }

  delete(key: Key): Promise<void> {
    // A row known to be absent (read, or prefetched, as none; or deleted already) has nothing to delete:
    // no write. If it was read as none, `unchanged()` checks it is still none before the batch is written.
    if (this.known(key) && this.rows.get(key) === null) return Promise.resolve();
    this.setRow(key, null);
    this.dirty.add(key);
    return Promise.resolve();
  }

  async bulkDelete(keys: readonly Key[]): Promise<void> {
    for (const key of keys) await this.delete(key);
  }

  async update(key: Key, changes: Changes): Promise<number> {
    const row = await this.get(key);
    if (!row) return 0;
    const next = modified(row, changes);
    if (next === false) return 0;
    if (next === null) await this.delete(key);
    else await this.put(next);
    return 1;
  }

  where(index: string): { equals(value: Key): OverlayQuery; anyOf(values: readonly Key[]): OverlayQuery } {
    return {
      equals: (value) => new OverlayQuery(this, index, [value]),
      anyOf: (values) => new OverlayQuery(this, index, values),
    };
  }

  /** The rows (copies) whose `index` is one of `values`, in primary-key order, as the index would return them. */
  async matching(index: string, values: readonly Key[]): Promise<Row[]> {
    await this.load(index, values);
    if (index === ':id' || index === this.keyPath)
      return (await this.bulkGet([...new Set(values)].sort(compareKeys))).filter((r): r is Row => r !== undefined);
    const keys = this.indexed(index);
    const found: Key[] = [];
    for (const value of new Set<unknown>(values)) for (const key of keys.get(value) ?? []) found.push(key);
    return found.sort(compareKeys).map((key) => copy(this.rows.get(key)!));
  }

  /**
   * Whether the table still holds what the batch read from it: the same rows by key, and the same keys
   * for each index query (a row added to what a query found, or taken from it, is a change too).
   */
  async unchanged(): Promise<boolean> {
    const keys = [...this.stored.keys()];
    const [rows, ...found] = await Promise.all([
      keys.length ? (this.real.bulkGet(keys) as Promise<(Row | undefined)[]>) : Promise.resolve([]),
      ...this.queried.map((q) => q.keysNow()),
    ]);
    const sameQueries = this.queried.every((q, i) => sameKeys(q.keys, found[i]!));
    this.checked = { rows: new Map(keys.map((key, i) => [key, rows[i] ?? null])), sameQueries };
    return sameQueries && keys.every((key, i) => same(this.stored.get(key), rows[i] ?? null));
  }

  /** What the last `unchanged()` read: every row the batch had read, as stored then, and whether its queries found the same keys. */
  private checked: { rows: Map<Key, Row | null>; sameQueries: boolean } | undefined;

  /**
   * A table that knows what this one read, as the last check found it (undefined if an index query
   * found other keys, or no check ran): each query still covers the same rows, so a reduce over it
   * needs no request for them.
   */
  rebased(): OverlayTable | undefined {
    if (!this.checked?.sameQueries) return undefined;
    const table = new OverlayTable(this.real);
    for (const [key, row] of this.checked.rows) table.setRow(key, table.read(key, row ?? undefined));
    for (const value of this.covered) table.covered.add(value);
    table.ranges.push(...this.ranges);
    table.queried.push(...this.queried);
    table.implied = this.implied;
    return table;
  }

  /** Writes the batch's changes to the table (in the caller's transaction), FLUSH_SLICE rows at a time. */
  async flush(): Promise<void> {
    const puts: Row[] = [];
    const deletes: Key[] = [];
    for (const key of this.dirty) {
      const row = this.rows.get(key);
      if (row) puts.push(row);
      else deletes.push(key);
    }
    if (deletes.length) await this.real.bulkDelete(deletes);
    // The next slice is placed in this one's success callback (the transaction stays active).
    for (let at = 0; at < puts.length; at += FLUSH_SLICE) await this.real.bulkPut(puts.slice(at, at + FLUSH_SLICE));
  }
}

/**
 * Rows per bulkPut of a chunk's writes, each placed once the one before is written: placing a put copies
 * its row, and a chunk's thousand rows placed at once made a long task (a slice sized by the time its
 * placing took grew too large: Dexie places them after the call returns). 200 rows still took 40-110 ms
 * on a loaded machine. Not under 50: Dexie then tracks each key and index value of the put for its live
 * queries, where 50 or more mark the whole table (a chunk's writes reach most of the lane anyway).
 */
const FLUSH_SLICE = 50;

/** byKeys lists the keys in the range of at least this many keys asked for (fewer: a request per key). */
const BY_KEYS_FROM = 16;
/** At most max(BY_KEYS_LIMIT, BY_KEYS_PER_KEY × the keys asked for) keys listed, or one request per key after all. */
const BY_KEYS_LIMIT = 5000;
const BY_KEYS_PER_KEY = 16;
/** Tables whose keys were too many to list (byKeys): their keys are read one by one for the rest of the page's life. */
const crowded = new WeakSet<Table>();

/** Structural equality of two rows as IndexedDB returns them; anything but plain data counts as changed. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (Array.isArray(b)) return false;
  const plain = (o: object) => [Object.prototype, null].includes(Object.getPrototypeOf(o) as object | null);
  if (!plain(a) || !plain(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && same((a as Row)[k], (b as Row)[k]));
}

function sameKeys(a: readonly Key[], b: readonly Key[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = (keys: readonly Key[]) => [...keys].sort(compareKeys);
  const [x, y] = [sorted(a), sorted(b)];
  return x.every((k, i) => k === y[i]);
}

function valueAt(row: Row, path: string): unknown {
  return path.includes('.') ? Dexie.getByKeyPath(row, path) : row[path];
}

function keysWith(keys: Map<unknown, Set<Key>>, value: unknown): Set<Key> {
  let set = keys.get(value);
  if (!set) keys.set(value, (set = new Set()));
  return set;
}

function compareKeys(a: Key, b: Key): number {
  // IndexedDB orders numbers before strings, and strings by code unit (as JavaScript's < does).
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** where(index).equals/anyOf(…)[.filter(…)…] and the terminal operations the rules use. */
class OverlayQuery {
  private readonly filters: ((row: Row) => boolean)[] = [];

  constructor(
    private readonly table: OverlayTable,
    private readonly index: string,
    private readonly values: readonly Key[],
  ) {}

  filter(fn: (row: Row) => boolean): this {
    this.filters.push(fn);
    return this;
  }

  and(fn: (row: Row) => boolean): this {
    return this.filter(fn);
  }

  async toArray(): Promise<Row[]> {
    const rows = await this.table.matching(this.index, this.values);
    return rows.filter((row) => this.filters.every((f) => f(row)));
  }

  async first(): Promise<Row | undefined> {
    return (await this.toArray())[0];
  }

  async count(): Promise<number> {
    return (await this.toArray()).length;
  }

  async primaryKeys(): Promise<Key[]> {
    const keyPath = this.table.real.schema.primKey.keyPath as string;
    return (await this.toArray()).map((row) => row[keyPath] as Key);
  }

  async modify(changes: Changes): Promise<number> {
    const keyPath = this.table.real.schema.primKey.keyPath as string;
    let count = 0;
    for (const row of await this.toArray()) {
      const next = modified(row, changes);
      if (next === false) continue;
      if (next === null) await this.table.delete(row[keyPath] as Key);
      else await this.table.put(next);
      count++;
    }
    return count;
  }

  async delete(): Promise<number> {
    const keys = await this.primaryKeys();
    await this.table.bulkDelete(keys);
    return keys.length;
  }
}

/** Only what a table of the overlay serves; anything else throws OverlayUnsupported. */
const SERVED = new Set(['get', 'bulkGet', 'put', 'bulkPut', 'delete', 'bulkDelete', 'update', 'where']);

function guarded(table: OverlayTable): OverlayTable {
  return new Proxy(table, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && !SERVED.has(prop)) throw new OverlayUnsupported(`${target.real.name}.${prop}`);
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export class BatchOverlay {
  private readonly tables = new Map<string, OverlayTable>();
  /** What the handlers get in place of the database: the overlay's tables, nothing else. */
  readonly db: IrisDB;

  constructor(
    private readonly real: IrisDB,
    private readonly tableNames: readonly string[],
    from?: Map<string, OverlayTable>,
  ) {
    // The database's own table properties (what the rules would call), not db.table(name)'s objects.
    const realTables = real as unknown as Record<string, Table>;
    for (const name of tableNames) {
      const table = realTables[name]!;
      // A table it cannot hold (the toasts' auto-incremented keys) is written only by frames that
      // reduceBatch applies beside the overlay's runs; asked for here, it throws OverlayUnsupported.
      if (OverlayTable.serves(table)) this.tables.set(name, from?.get(name) ?? new OverlayTable(table));
    }
    const guardedTables = new Map([...this.tables].map(([name, t]) => [name, guarded(t)]));
    this.db = new Proxy({} as IrisDB, {
      get(_target, prop) {
        if (typeof prop === 'string' && guardedTables.has(prop)) return guardedTables.get(prop);
        // The models open nested transactions: inside the batch's own, they just run.
        if (prop === 'transaction') return (...args: unknown[]) => (args.at(-1) as () => Promise<unknown>)();
        if (prop === 'then') return undefined; // not a thenable
        throw new OverlayUnsupported(`db.${String(prop)}`);
      },
    });
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  /** Loads, in parallel, the stored rows the batch will ask for (a hint: anything missed is read when asked). */
  async prefetch(
    wanted: readonly ({ table: string; index: string; values: readonly Key[] } | { table: string; range: KeyRange })[],
  ): Promise<void> {
    await Promise.all(
      wanted
        .filter((w) => ('range' in w || w.values.length > 0) && this.tables.has(w.table))
        .map((w) =>
          'range' in w
            ? this.tables.get(w.table)!.loadRange(w.range)
            : this.tables.get(w.table)!.load(w.index, w.values),
        ),
    );
  }

  /**
   * Declares that every stored row of `table` has its `index` value among `valuesOf(its key)` (ids
   * built from that value): once those values are loaded, a key no loaded row has is known to be
   * absent, and reading it costs no request (a replay creates hundreds of rows per chunk).
   */
  keyImplies(table: string, index: string, valuesOf: (key: Key) => readonly Key[]): void {
    this.tables.get(table)?.keyImplies(index, valuesOf);
  }

  /**
   * Gives the main thread back without ending the transaction: a read of a key no row has is a
   * request the transaction waits for, and its answer comes in a task of its own.
   */
  async pause(): Promise<void> {
    const [first] = this.tables.values();
    if (first) await first.real.get('\u0000pause');
  }

  /**
   * Whether the database still holds everything the batch read (call it in the transaction that writes
   * the batch, reduced before it): if so, writing the batch now is what reducing it there would write.
   */
  async unchanged(): Promise<boolean> {
    const each = await Promise.all([...this.tables.values()].map((table) => table.unchanged()));
    return each.every(Boolean);
  }

  /**
   * After `unchanged()` found a change: a new overlay, with none of this one's writes, that knows the
   * rows this one read as they are stored now, so reducing the batch again over it sends no request for
   * them (only for what the new reduce reads beyond). Undefined when an index query found other rows.
   */
  rebased(): BatchOverlay | undefined {
    const tables = new Map<string, OverlayTable>();
    for (const [name, table] of this.tables) {
      const rebased = table.rebased();
      if (!rebased) return undefined;
      tables.set(name, rebased);
    }
    return new BatchOverlay(this.real, this.tableNames, tables);
  }

  /** Writes every table's changes: a bulkDelete and a few bulkPuts per changed table, one table after another. */
  async flush(): Promise<void> {
    for (const table of this.tables.values()) await table.flush();
  }
}
