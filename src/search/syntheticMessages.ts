// Deterministic fake chat history for measuring the local index (unit test and benchmark).
// Word frequencies follow a Zipf curve like real text; lengths vary from a word to a paragraph.
import type { IndexableMessage } from './localIndex';

const COMMON = (
  'the a to and of i you it is that in we for this on with be can have not do what just so but ' +
  'are will if at my your me was there all about how like get more one would please thanks ok yes no'
).split(' ');
const TOPICAL = (
  'deploy server build error logs database query index cache memory network timeout retry release ' +
  'branch merge review test failing passing config docker kubernetes cluster node python script ' +
  'function module import export package version upgrade schedule meeting tomorrow today weekend ' +
  'report invoice budget design mockup screen mobile desktop browser search message channel thread ' +
  'reminder calendar email draft summary translate café résumé naïve crème über straße garçon ' +
  'weather paris london tokyo berlin recipe dinner grocery flight hotel booking ticket refund'
).split(' ');

/** The 20 fixed queries of the search benchmark: single terms, several terms, prefixes, rare and absent words. */
export const BENCH_QUERIES: readonly string[] = [
  'deploy',
  'server error',
  'database query timeout',
  'cafe',
  'resume',
  'kube',
  'the',
  'd',
  'tokyo flight',
  'invoice budget report',
  'word1234',
  'word98',
  'test failing branch',
  'memory leak',
  'zzzz',
  'please review the',
  'calendar reminder tomorrow',
  'docker clu',
  'straße',
  'python script import mod',
];

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` messages over 20 lanes, one every 30 s ending now-ish (fixed epoch so runs compare). */
export function syntheticMessages(count: number, seed = 42): IndexableMessage[] {
  const random = prng(seed);
  const rareVocabulary = 50_000;
  const pick = (): string => {
    const r = random();
    if (r < 0.45) return COMMON[Math.floor(random() * random() * COMMON.length)];
    if (r < 0.85) return TOPICAL[Math.floor(random() * random() * TOPICAL.length)];
    // A long tail of rare words, Zipf-like.
    return 'word' + Math.floor(Math.pow(random(), 3) * rareVocabulary);
  };
  const start = 1_700_000_000_000;
  const rows: IndexableMessage[] = new Array<IndexableMessage>(count);
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(Math.pow(random(), 2) * 120);
    const words = new Array<string>(length);
    for (let w = 0; w < length; w++) words[w] = pick();
    rows[i] = {
      message_id: `m${i.toString(36)}-${Math.floor(random() * 1e9).toString(36)}`,
      lane: `lane${Math.floor(random() * 20)}`,
      ts: start + i * 30_000,
      text: words.join(random() < 0.1 ? ', ' : ' ') + (random() < 0.3 ? '.' : ''),
    };
  }
  return rows;
}
