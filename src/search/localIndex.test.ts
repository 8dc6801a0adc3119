import { describe, expect, it } from 'vitest';
import { createLocalIndex, type IndexableMessage } from './localIndex';
import { syntheticMessages, BENCH_QUERIES } from './syntheticMessages';

const msg = (message_id: string, text: string, ts: number, lane = 'general'): IndexableMessage => ({
  message_id,
  lane,
  ts,
  text,
});

describe('createLocalIndex', () => {
  it('finds messages containing every term, the last one as a prefix', () => {
    const index = createLocalIndex();
    index.add([
      msg('a', 'Deploy the server tonight', 1),
      msg('b', 'the server is down', 2),
      msg('c', 'deploy script failed', 3),
    ]);
    expect(index.search('deploy serv').map((h) => h.message_id)).toEqual(['a']);
    expect(index.search('serv').map((h) => h.message_id)).toEqual(['b', 'a']);
    expect(index.search('deploy').map((h) => h.message_id)).toEqual(['c', 'a']);
    // Only the last term is a prefix.
    expect(index.search('depl server')).toEqual([]);
    expect(index.search('nothing')).toEqual([]);
    expect(index.search('')).toEqual([]);
  });

  it('ranks by term hits, then by recency', () => {
    const index = createLocalIndex();
    index.add([
      msg('old-many', 'cache cache cache', 1),
      msg('new-one', 'cache', 30),
      msg('mid-one', 'cache', 20),
      msg('new-two', 'cache and cache', 10),
    ]);
    expect(index.search('cache').map((h) => [h.message_id, h.hits])).toEqual([
      ['old-many', 3],
      ['new-two', 2],
      ['new-one', 1],
      ['mid-one', 1],
    ]);
  });

  it('matches regardless of case and accents', () => {
    const index = createLocalIndex();
    index.add([msg('a', 'Crème brûlée at the Café', 1)]);
    expect(index.search('CREME cafe').map((h) => h.message_id)).toEqual(['a']);
    expect(index.search('brûl').map((h) => h.message_id)).toEqual(['a']);
  });

  it('filters by lane and honours the limit', () => {
    const index = createLocalIndex();
    const rows = Array.from({ length: 30 }, (_, i) => msg(`m${i}`, `report number ${i}`, i, i % 2 ? 'odd' : 'even'));
    index.add(rows);
    const odd = index.search('report', { lane: 'odd', limit: 100 });
    expect(odd).toHaveLength(15);
    expect(odd.every((h) => h.lane === 'odd')).toBe(true);
    expect(odd[0].message_id).toBe('m29');
    expect(index.search('report', { limit: 5 }).map((h) => h.message_id)).toEqual(['m29', 'm28', 'm27', 'm26', 'm25']);
    expect(index.search('report', { lane: 'unknown-lane' })).toEqual([]);
  });

  it('re-indexes a message whose text changed and forgets removed ones', () => {
    const index = createLocalIndex();
    index.add([msg('a', 'first draft', 1), msg('b', 'another draft', 2)]);
    index.add([msg('a', 'final version', 1)]);
    expect(index.search('draft').map((h) => h.message_id)).toEqual(['b']);
    expect(index.search('final').map((h) => h.message_id)).toEqual(['a']);
    index.remove(['b', 'not-there']);
    expect(index.search('draft')).toEqual([]);
    expect(index.size).toBe(1);
    expect(index.has('a')).toBe(true);
    expect(index.has('b')).toBe(false);
  });

  it('keeps the same postings when only the status of a message changed', () => {
    const index = createLocalIndex();
    index.add([msg('a', 'hello there', 1)]);
    index.add([msg('a', 'hello there', 5)]);
    expect(index.search('hello')).toEqual([{ message_id: 'a', lane: 'general', ts: 5, hits: 1 }]);
  });

  it('stays correct through compaction after many removals', () => {
    const index = createLocalIndex();
    const rows = Array.from({ length: 12_000 }, (_, i) => msg(`m${i}`, `word${i % 10} common`, i));
    index.add(rows);
    index.remove(rows.slice(0, 9_000).map((r) => r.message_id));
    expect(index.size).toBe(3_000);
    const hits = index.search('word3 common', { limit: 1000 });
    expect(hits).toHaveLength(300);
    expect(hits[0].message_id).toBe('m11993');
    index.add([msg('m0', 'word3 common again', 99_999)]);
    expect(index.search('again').map((h) => h.message_id)).toEqual(['m0']);
  });

  it('clears', () => {
    const index = createLocalIndex();
    index.add([msg('a', 'x', 1)]);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search('x')).toEqual([]);
  });

  it('builds over 100,000 messages and answers queries (timings printed, not asserted)', () => {
    const rows = syntheticMessages(100_000);
    const index = createLocalIndex();
    const buildStart = performance.now();
    for (let i = 0; i < rows.length; i += 2000) index.add(rows.slice(i, i + 2000));
    const buildMs = performance.now() - buildStart;
    expect(index.size).toBe(100_000);

    const times: number[] = [];
    let total = 0;
    for (const query of BENCH_QUERIES) {
      const start = performance.now();
      const hits = index.search(query, { limit: 50 });
      times.push(performance.now() - start);
      total += hits.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(
      `local index: built 100,000 messages in ${buildMs.toFixed(0)} ms; ` +
        `20 queries: median ${median.toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms, ${total} hits`,
    );
    expect(total).toBeGreaterThan(0);
  }, 120_000);
});
