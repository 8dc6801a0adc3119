// A deterministic lane history for the cold-start and long-lane benchmarks: mixed lengths (a line,
// a paragraph, a long answer with a list and a code block), user and assistant taking turns. The
// newest and oldest messages carry marker words the harness waits for on screen.
import type { MessageRow } from '../../src/store/schema';

export interface LaneHistoryOptions {
  lane: string;
  count: number;
  /** A word only the newest message contains. */
  newestMarker: string;
  /** A word only the oldest message contains. */
  oldestMarker: string;
  seed?: number;
  /** How many assistant answers, spread over the lane, are a whole file: a BIG_ANSWER_LINES-line code block. */
  bigAnswers?: number;
}

export const BIG_ANSWER_LINES = 3000;

const WORDS = (
  'the agent deploy server build error logs database query index cache memory network timeout retry ' +
  'release branch merge review test config cluster node script function module import package version ' +
  'schedule meeting report budget design screen browser search message channel thread reminder summary ' +
  'and of to in for with on that this we you it is be can will not what how more about'
).split(' ');

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

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

function paragraph(random: () => number): string {
  const sentences = 2 + Math.floor(random() * 4);
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(random, 6 + Math.floor(random() * 12)));
  return out.join(' ');
}

/** A long assistant answer: paragraphs, a list and a fenced code block (exercises Markdown and highlighting). */
function longAnswer(random: () => number, i: number): string {
  const items = Array.from(
    { length: 3 + Math.floor(random() * 4) },
    () => `- **${sentence(random, 2)}** ${sentence(random, 8)}`,
  );
  const code = [
    '```ts',
    `export function step${i}(input: number): number {`,
    `  return input * ${i % 97} + ${i % 13};`,
    '}',
    '```',
  ].join('\n');
  return [paragraph(random), items.join('\n'), code, paragraph(random)].join('\n\n');
}

/** An answer that is a whole file, as the demo agent's `/file` writes it. */
function fileAnswer(i: number): string {
  const lines = Array.from(
    { length: BIG_ANSWER_LINES },
    (_, n) => `export const value${n + 1} = compute(${n + 1}, "item-${i}"); // line ${n + 1} of the file`,
  );
  return `Here is \`big${i}.ts\`, ${BIG_ANSWER_LINES} lines:\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\``;
}

export const BENCH_BASE_TS = 1_700_000_000_000;

/** `count` rows of one lane, oldest first, one minute apart. */
export function laneHistory(opts: LaneHistoryOptions): MessageRow[] {
  const random = prng(opts.seed ?? 7);
  const rows: MessageRow[] = new Array(opts.count);
  // The whole files: assistant rows (odd places), evenly spread, the middle of each stretch.
  const big = opts.bigAnswers ?? 0;
  const bigAt = new Set(Array.from({ length: big }, (_, k) => 2 * Math.floor(((k + 0.5) * opts.count) / big / 2) + 1));
  for (let i = 0; i < opts.count; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const r = random();
    let text: string;
    if (role === 'user') text = r < 0.7 ? sentence(random, 4 + Math.floor(random() * 10)) : paragraph(random);
    else
      text =
        r < 0.45
          ? sentence(random, 8 + Math.floor(random() * 12))
          : r < 0.85
            ? paragraph(random)
            : longAnswer(random, i);
    if (bigAt.has(i)) text = fileAnswer(i);
    if (i === opts.count - 1) text = `Newest message ${opts.newestMarker} of the lane.`;
    else if (i === 0) text = `Oldest message ${opts.oldestMarker} of the lane.`;
    rows[i] = {
      message_id: `bench-${String(i).padStart(6, '0')}`,
      lane: opts.lane,
      chat_id: opts.lane,
      role,
      text,
      ts: BENCH_BASE_TS + i * 60_000,
      status: 'final',
      ...(role === 'assistant' ? { model: 'bench-model', tokens: text.split(' ').length } : {}),
    };
  }
  return rows;
}
