import { describe, expect, it } from 'vitest';
import { plainFromMarkdown, plainSnippet } from './plainText';

describe('plainFromMarkdown', () => {
  it('reads the demo reply as its words: no stars, fences or language names', () => {
    const md =
      '**Echo:** Plan my week\n\nYour message has **8** words.\n\n```text\nPlan my week\n```\n\n_— Iris demo agent_';
    expect(plainFromMarkdown(md)).toBe('Echo: Plan my week Your message has 8 words. Plan my week — Iris demo agent');
  });

  it('keeps link words, image alt text, list numbers and code; drops targets, bullets, headings and quotes', () => {
    const md =
      '# Plan\n\n> quoted\n\n- see [the docs](https://example.org/a_(b)) and ![a chart](data:x)\n2. run `npm test`';
    expect(plainFromMarkdown(md)).toBe('Plan quoted see the docs and a chart 2. run npm test');
  });

  it('turns a table into its cells, without pipes or the rule', () => {
    expect(plainFromMarkdown('| Day | Plan |\n| --- | :-: |\n| Mon | Gym |')).toBe(
      'Day  Plan Mon  Gym'.replace(/\s+/g, ' '),
    );
  });

  it('drops strikethrough marks and keeps a lone ~~ between spaces', () => {
    expect(plainFromMarkdown('was ~~Monday~~ now Tuesday, ~~ apart')).toBe('was Monday now Tuesday, ~~ apart');
  });

  it('leaves snake_case, arithmetic and raw HTML as they are (the app shows HTML as text)', () => {
    expect(plainFromMarkdown('use file_name_here and 2*3*4 <b>x</b>')).toBe('use file_name_here and 2*3*4 <b>x</b>');
  });
});

describe('plainSnippet', () => {
  it('cleans a window the gateway cut inside the Markdown and drops the half words at its edges', () => {
    expect(plainSnippet('…ho:** Plan my week: gym twice, finish the report\n\nYour message has **8** wo…')).toBe(
      '… Plan my week: gym twice, finish the report Your message has 8 …',
    );
  });

  it('keeps a snippet that was not cut whole', () => {
    expect(plainSnippet('**Echo:** hello')).toBe('Echo: hello');
  });
});

describe('plainSnippet of a flattened window', () => {
  it('drops a fence and its language that the gateway flattened onto one line', () => {
    expect(plainSnippet('…day. ```text call the broker ``` Thanks…')).toBe('… call the broker …');
  });
});
