import { describe, expect, it } from 'vitest';
import { headBlocks, markdownLength, previewText, textEnd } from './headBlocks';

describe('headBlocks', () => {
  it('cuts a text at blank lines into paragraphs, keeping line breaks and inline marks (LaneHead draws them)', () => {
    expect(headBlocks('**Echo:** one\ntwo\n\n\nthree')).toEqual([
      { kind: 'p', text: '**Echo:** one\ntwo' },
      { kind: 'p', text: 'three' },
    ]);
  });

  it('finds headings, lists (bullets and numbers apart), quotes and rules', () => {
    expect(headBlocks('# Plan\n- a\n* b\n1. c\n2) d\n> said\n> more\n\n---\nend')).toEqual([
      { kind: 'h', level: 1, text: 'Plan' },
      { kind: 'list', ordered: false, start: 1, loose: false, items: [{ text: 'a' }, { text: 'b' }] },
      { kind: 'list', ordered: true, start: 1, loose: false, items: [{ text: 'c' }, { text: 'd' }] },
      { kind: 'quote', text: 'said\nmore' },
      { kind: 'hr' },
      { kind: 'p', text: 'end' },
    ]);
  });

  it('reads a paragraph underlined with === or --- as a heading, and --- elsewhere as a rule', () => {
    expect(headBlocks('Title\n===\nSub **one**\n---\n\n---')).toEqual([
      { kind: 'h', level: 1, text: 'Title' },
      { kind: 'h', level: 2, text: 'Sub **one**' },
      { kind: 'hr' },
    ]);
  });

  it('keeps a line under an item with the item', () => {
    expect(headBlocks('- first\n  goes on\n- second')).toEqual([
      { kind: 'list', ordered: false, start: 1, loose: false, items: [{ text: 'first\ngoes on' }, { text: 'second' }] },
    ]);
  });

  it('puts an item indented under another in a list of its own inside it', () => {
    expect(headBlocks('1. **Step** one\n   - detail a\n    - detail b\n2. Step two')).toEqual([
      {
        kind: 'list',
        ordered: true,
        start: 1,
        loose: false,
        items: [
          {
            text: '**Step** one',
            sub: {
              kind: 'list',
              ordered: false,
              start: 1,
              loose: false,
              items: [{ text: 'detail a' }, { text: 'detail b' }],
            },
          },
          { text: 'Step two' },
        ],
      },
    ]);
  });

  it('goes on with a list parted by blank lines (loose), numbered from its first item', () => {
    expect(headBlocks('3. c\n\n4. d\n\nafter')).toEqual([
      { kind: 'list', ordered: true, start: 3, loose: true, items: [{ text: 'c' }, { text: 'd' }] },
      { kind: 'p', text: 'after' },
    ]);
    // Another kind of list after the blank line is another list.
    expect(headBlocks('- a\n\n1. b').map((b) => b.kind === 'list' && b.ordered)).toEqual([false, true]);
  });

  it('takes a fenced block whole, marks and all, with its language; a long one is cut as the lane cuts it', () => {
    expect(headBlocks('before\n```ts\nconst **a** = 1;\n\nb();\n```\nafter')).toEqual([
      { kind: 'p', text: 'before' },
      { kind: 'code', lang: 'ts', shown: 'const **a** = 1;\n\nb();', lines: 3, chars: 22, collapsed: false },
      { kind: 'p', text: 'after' },
    ]);
    const long = Array.from({ length: 41 }, (_, i) => `${i}`).join('\n');
    const [block] = headBlocks(`~~~~\n${long}\n~~~~`);
    expect(block).toMatchObject({ kind: 'code', lang: '', lines: 41, collapsed: true });
    expect(block!.kind === 'code' && block.shown.split('\n')).toHaveLength(20);
  });

  it('runs a fence that never closes (a text cut short) to the end', () => {
    expect(headBlocks('```\na\nb')).toEqual([
      { kind: 'code', lang: '', shown: 'a\nb', lines: 2, chars: 3, collapsed: false },
    ]);
  });
});

describe('a code block of one huge line in headBlocks', () => {
  it('is cut at 2,000 characters, as the lane cuts it, with its whole size', () => {
    const [block] = headBlocks(`\`\`\`json\n${'{"k":1},'.repeat(2_500)}\n\`\`\``);
    expect(block).toMatchObject({ kind: 'code', lines: 1, chars: 20_000, collapsed: true });
    expect(block!.kind === 'code' && block.shown.length).toBeLessThanOrEqual(2_001);
  });
});

describe('textEnd', () => {
  const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: ${'words '.repeat(49)}`);

  it('is the text from the last block start that leaves the characters asked for', () => {
    const text = paragraphs.join('\n\n');
    expect(textEnd('short', 1_000)).toBe('short');
    const end = textEnd(text, 1_000);
    expect(end.startsWith('Paragraph 9: ')).toBe(true);
    expect(text.endsWith(end)).toBe(true);
  });

  it('never starts inside a code block, at a list item or at an indented line', () => {
    // Blank lines inside the block (not collapsed: under 40 lines), the last ones within the characters.
    const code = Array.from({ length: 15 }, (_, i) => `line ${i}\n`).join('\n');
    const withCode = `${paragraphs[0]}\n\n\`\`\`\n${code}\`\`\`\nAfter.`;
    expect(textEnd(withCode, 100).startsWith('```\n')).toBe(true);
    const list = `${paragraphs[0]}\n\n1. ${'a '.repeat(200)}\n\n2. ${'b '.repeat(200)}\n\n   more of two`;
    expect(textEnd(list, 300).startsWith('1. ')).toBe(true);
  });

  it('counts a collapsed code block as what it shows, and is all of a text with no block start', () => {
    const minified = `Minified:\n\n\`\`\`json\n${'{"k":1},'.repeat(10_000)}\n\`\`\``;
    expect(textEnd(minified, 3_000)).toBe(minified);
    const oneParagraph = 'word '.repeat(5_000);
    expect(textEnd(oneParagraph, 1_000)).toBe(oneParagraph);
  });
});

describe('markdownLength', () => {
  it('counts the characters outside fenced code', () => {
    expect(markdownLength('plain text')).toBe(10);
    expect(markdownLength('ab\n```\ncode\n```\n')).toBe('ab\n```\ncode\n```\n'.length - 'code\n'.length);
  });
});

describe('previewText', () => {
  it('keeps the first lines, and a code block whole, counted as the lines it shows', () => {
    expect(previewText('1\n2\n3\n4', 2)).toBe('1\n2');
    const code = Array.from({ length: 60 }, (_, i) => `${i}`).join('\n');
    expect(previewText(`\`\`\`\n${code}\n\`\`\`\nafter`, 6)).toBe(`\`\`\`\n${code}\n\`\`\``);
    expect(previewText('intro\n```\na\nb\n```\nafter\nmore', 4)).toBe('intro\n```\na\nb\n```\nafter');
  });
});

describe('a table in headBlocks', () => {
  it('is its rows of cells, the header first, marks and escaped pipes kept', () => {
    expect(
      headBlocks('Prices:\n| Item | **Cost** |\n| --- | ---: |\n| tea | 2 \\| 3 |\n| cake | 4 |\n\nafter'),
    ).toEqual([
      { kind: 'p', text: 'Prices:' },
      {
        kind: 'table',
        rows: [
          ['Item', '**Cost**'],
          ['tea', '2 | 3'],
          ['cake', '4'],
        ],
        align: ['', 'right'],
      },
      { kind: 'p', text: 'after' },
    ]);
  });

  it('needs a delimiter row with as many columns; without one the pipes are text', () => {
    expect(headBlocks('a | b\n:-: | :--\nc | d')).toEqual([
      {
        kind: 'table',
        rows: [
          ['a', 'b'],
          ['c', 'd'],
        ],
        align: ['center', 'left'],
      },
    ]);
    expect(headBlocks('a | b | c\n--- | ---')).toEqual([{ kind: 'p', text: 'a | b | c\n--- | ---' }]);
    expect(headBlocks('just a | pipe')).toEqual([{ kind: 'p', text: 'just a | pipe' }]);
  });
});
