import { describe, expect, it } from 'vitest';
import {
  chunkLines,
  firstLines,
  lineCount,
  markdownChars,
  previewSegments,
  reuseSegments,
  segmentGrown,
  segmentMarkdown,
  type Segment,
  type Segmentation,
} from './markdownSegments';

/** The text back from its pieces (code pieces with fences as the scanner saw them). */
function join(segments: Segment[], fence = '```'): string {
  return segments
    .map((s) => (s.kind === 'md' ? s.text : `${fence}${s.lang}\n${s.text}\n${s.closed ? `${fence}\n` : ''}`))
    .join('');
}

const para = (i: number) => `Paragraph ${i} ${'words '.repeat(60)}\n\n`;

describe('segmentMarkdown', () => {
  it('keeps a short text whole', () => {
    expect(segmentMarkdown('Hello **there**')).toEqual([{ kind: 'md', text: 'Hello **there**' }]);
  });

  it('makes a top-level fenced code block its own piece, with its language', () => {
    const text = 'Here:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nDone.';
    expect(segmentMarkdown(text)).toEqual([
      { kind: 'md', text: 'Here:\n\n' },
      { kind: 'code', text: 'const a = 1;\n\nconst b = 2;', lang: 'ts', closed: true },
      { kind: 'md', text: '\nDone.' },
    ]);
  });

  it('leaves a fence open while it streams, and never closes it on a shorter or other fence', () => {
    expect(segmentMarkdown('```py\nprint(1)\n~~~\n``\n')).toEqual([
      { kind: 'code', text: 'print(1)\n~~~\n``', lang: 'py', closed: false },
    ]);
    expect(segmentMarkdown('````\na\n```\n````\nafter')).toEqual([
      { kind: 'code', text: 'a\n```', lang: '', closed: true },
      { kind: 'md', text: 'after' },
    ]);
  });

  it('splits long Markdown at blank lines before a fresh block, never inside a list or an indented fence', () => {
    const text = Array.from({ length: 40 }, (_, i) => para(i)).join('');
    const pieces = segmentMarkdown(text);
    expect(pieces.length).toBeGreaterThan(5);
    expect(join(pieces)).toBe(text);
    for (const p of pieces) expect(p.kind === 'md' && p.text.length).toBeLessThan(2_000 + para(0).length + 1);

    const list = Array.from({ length: 200 }, (_, i) => `${i + 1}. item ${'x'.repeat(20)}\n\n`).join('');
    expect(segmentMarkdown(list)).toHaveLength(1);
    const nested = `${para(1).repeat(5)}- item\n\n  \`\`\`\n  code\n\nstill code? no: ends the item\n  \`\`\`\n`;
    expect(join(segmentMarkdown(nested))).toBe(nested);
  });

  it('cuts a huge text with no boundary at line ends, keeping every character', () => {
    const log = Array.from({ length: 5000 }, (_, i) => `line ${i} of a pasted log`).join('\n');
    const pieces = segmentMarkdown(log);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((p) => p.kind === 'md' && p.text.length <= 16_000 + 40)).toBe(true);
    expect(join(pieces)).toBe(log);
  });

  it('cuts a line longer than a piece inside it, at a word that starts no block, and a line of no spaces anywhere', () => {
    // Words that would start a block at a line's start: a piece must not begin with one of them.
    const words = ['alpha', '-', '#', '>', '1.', '```', '<div>', '|', '***', 'omega'];
    const line = Array.from({ length: 12_000 }, (_, i) => words[i % words.length]).join(' ');
    const text = `Intro.\n\n${line}\n\nAfter.`;
    const pieces = segmentMarkdown(text);
    expect(join(pieces)).toBe(text);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      expect(piece.kind).toBe('md');
      expect(piece.text.length).toBeLessThanOrEqual(16_000);
    }
    for (const piece of pieces.slice(1, -1)) expect(piece.text).toMatch(/^(alpha|omega) /);

    const blob = `${'QUJDRA'.repeat(10_000)}😀${'x'.repeat(30_000)}`;
    const cut = segmentMarkdown(blob);
    expect(join(cut)).toBe(blob);
    expect(cut.map((p) => p.text.length)).toEqual([16_000, 16_000, 16_000, 16_000, 16_000, 10_002]);
    // Cut beside a surrogate pair, never between its halves.
    const emoji = '😀'.repeat(20_000);
    for (const p of segmentMarkdown(emoji)) expect(p.text).toMatch(/^(?:😀)+$/u);
  });

  it('does not cut the lines of a long text whose lines are short', () => {
    const log = Array.from({ length: 5000 }, (_, i) => `line ${i} of a pasted log`).join('\n');
    for (const p of segmentMarkdown(log).slice(0, -1)) expect(p.text.endsWith('\n')).toBe(true);
  });

  it('does not split a text with link definitions (they may be used anywhere)', () => {
    const text = `${para(1).repeat(10)}[docs]: https://example.com\n\n${para(2).repeat(10)}See [docs].`;
    expect(segmentMarkdown(text)).toHaveLength(1);
  });

  it('splits a growing text the same way: only the last piece changes, and the rest are reused', () => {
    const full = `${para(0).repeat(8)}\`\`\`js\n${'let x = 1;\n'.repeat(300)}\`\`\`\n\n${para(1).repeat(8)}`;
    let prev: Segment[] = [];
    let changedBeforeLast = 0;
    for (let end = 50; end <= full.length; end += 397) {
      const next = reuseSegments(prev, segmentMarkdown(full.slice(0, end)));
      for (let i = 0; i < Math.min(prev.length, next.length) - 1; i++) if (next[i] !== prev[i]) changedBeforeLast++;
      prev = next;
    }
    expect(changedBeforeLast).toBe(0);
  });
});

describe('segmentGrown', () => {
  // Texts whose growing tail changes what a line is: a list marker, a fence, a link definition.
  const texts = [
    `${para(0).repeat(8)}\`\`\`js\n${'let x = 1;\n'.repeat(300)}\`\`\`\n\n${para(1).repeat(8)}`,
    `${para(0).repeat(5)}1. item\n\n2. item ${'y'.repeat(3000)}\n\n- a\n\n\`\`\`\`\n\`\`\`\n\`\`\`\`\n${para(2).repeat(5)}`,
    `${para(0).repeat(6)}\`\`\`ts\ncode\n\`\`\`\n${para(1).repeat(3)}[docs]: https://example.com\n\nSee [docs].`,
    `${'line without a blank '.repeat(40)}\n`.repeat(60) + '    ```\n    indented\n\n    ```\n' + para(3).repeat(6),
    // One line longer than a piece, streamed: its cuts, after a piece that ends at its start or not.
    `${para(0).repeat(8)}${'word '.repeat(7_000)}tail\n\n${para(1).repeat(2)}`,
    `Intro.\n\n${'😀'.repeat(9_000)}${'Z'.repeat(20_000)}\n- item`,
    `Here is \`big.ts\`, 200 lines:\n\n\`\`\`ts\n${Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i};`).join('\n')}\n\`\`\`\n\n_— Iris demo agent_`,
  ];

  it('splits every prefix of a growing text exactly as a full split does', () => {
    for (const full of texts) {
      for (const step of [41, 397]) {
        let prev: Segmentation | undefined;
        for (let end = 0; end <= full.length; end = end === full.length ? end + 1 : Math.min(full.length, end + step)) {
          const text = full.slice(0, end);
          prev = segmentGrown(prev, text);
          expect(prev.segments).toEqual(segmentMarkdown(text));
          expect(prev.text).toBe(text);
        }
      }
    }
  });

  it('splits every prefix of a text with code blocks exactly as a full split does, one character at a time', () => {
    const full =
      'Here:\n\n```ts\nconst a = 1;\n``\n ```ts\n\n```\r\nBetween.\n\n~~~~\n~~~\n```\n~~~~~  \n```\n' +
      'open\n```\n\n```py\nlast = 1\n```';
    let prev: Segmentation | undefined;
    for (let end = 0; end <= full.length; end++) {
      const text = full.slice(0, end);
      prev = segmentGrown(prev, text);
      expect(prev.segments, JSON.stringify(text)).toEqual(segmentMarkdown(text));
    }
  });

  it('keeps the finished pieces as the same objects, and splits a text that is not a continuation afresh', () => {
    const full = texts[0]!;
    const half = segmentGrown(undefined, full.slice(0, full.length - 500));
    const whole = segmentGrown(half, full);
    expect(whole.segments.slice(0, half.segments.length - 1)).toEqual(half.segments.slice(0, -1));
    for (let i = 0; i < half.segments.length - 2; i++) expect(whole.segments[i]).toBe(half.segments[i]);
    expect(segmentGrown(whole, 'Edited.').segments).toEqual([{ kind: 'md', text: 'Edited.' }]);
  });

  it('keeps the pieces of a huge line streaming in, up to its last cut, as the same objects', () => {
    const full = `${para(0).repeat(8)}${'word '.repeat(20_000)}`;
    const before = segmentGrown(undefined, full.slice(0, 90_000));
    const after = segmentGrown(before, full);
    expect(before.segments.length).toBeGreaterThan(5);
    for (let i = 0; i < before.segments.length - 1; i++) expect(after.segments[i]).toBe(before.segments[i]);
    expect(after.segments).toEqual(segmentMarkdown(full));
  });
});

describe('firstLines', () => {
  it('takes the first lines, or all of a shorter text', () => {
    expect(firstLines('a\nb\nc\nd', 2)).toBe('a\nb');
    expect(firstLines('a\nb', 5)).toBe('a\nb');
  });
});

describe('lineCount and chunkLines', () => {
  it('count lines and cut them into pieces that join back to the text', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    const code = Array.from({ length: 450 }, (_, i) => `line ${i}`).join('\n');
    const chunks = chunkLines(code, 200);
    expect(chunks.map(lineCount)).toEqual([200, 200, 50]);
    expect(chunks.join('')).toBe(code);
    expect(chunkLines('', 200)).toEqual(['']);
  });
});

describe('previewSegments', () => {
  it('shows the start of a huge text: whole code blocks (they collapse themselves), Markdown cut at a line', () => {
    const log = Array.from({ length: 100 }, (_, i) => `log line ${i}`).join('\n');
    const text = `Intro\n\n\`\`\`ts\n${'x\n'.repeat(500)}\`\`\`\n${log}`;
    const all = segmentMarkdown(text);
    expect(markdownChars(all)).toBe(
      text.length -
        all.filter((s) => s.kind === 'code').reduce((n, s) => n + s.text.length, 0) -
        '```ts\n\n```\n'.length,
    );
    const preview = previewSegments(all, 40, 20, 100_000);
    expect(preview[1]).toBe(all[1]);
    expect(preview.at(-1)!.kind).toBe('md');
    expect(lineCount(preview.at(-1)!.text)).toBeLessThan(30);
    expect(previewSegments(all, 1000, 20, 100_000)).toEqual(all);
  });

  it('cuts a text of one huge line inside the line, at the characters asked for', () => {
    const line = 'z'.repeat(1_000_000);
    const preview = previewSegments(segmentMarkdown(line), 40, 20, 5_000);
    expect(preview).toEqual([{ kind: 'md', text: `${'z'.repeat(5_000)}…` }]);
  });

  it('counts the characters of every piece: the lines after a long one are cut short', () => {
    const text = `${'a'.repeat(3_000)}\n\n\`\`\`\n${'b'.repeat(1_500)}\n\`\`\`\n${'word '.repeat(2_000)}`;
    const preview = previewSegments(segmentMarkdown(text), 40, 20, 5_000);
    expect(preview.map((s) => s.kind)).toEqual(['md', 'code', 'md']);
    // 3,000 + the blank line's, 1,501 of code: about 500 characters of the last piece are left, cut after a word.
    const last = preview.at(-1)!.text;
    expect(last.endsWith('word…')).toBe(true);
    expect(last.length).toBeLessThan(520);
    expect(last.length).toBeGreaterThan(440);
  });
});
