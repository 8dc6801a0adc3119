import { describe, expect, it } from 'vitest';
import { normalize, queryTerms, tokenize, MAX_TERM_LENGTH } from './tokenize';

describe('tokenize', () => {
  it('lowercases and splits on anything but letters and digits', () => {
    expect(tokenize("Hello, World! It's 2024-05_01.")).toEqual(['hello', 'world', 'it', 's', '2024', '05', '01']);
  });

  it('strips diacritics so accented and plain spellings meet', () => {
    expect(normalize('Crème Brûlée à São Paulo')).toBe('creme brulee a sao paulo');
    expect(tokenize('naïve CAFÉ Ångström')).toEqual(['naive', 'cafe', 'angstrom']);
  });

  it('keeps letters of other scripts and splits ideographs into single characters', () => {
    expect(tokenize('Привет мир')).toEqual(['привет', 'мир']);
    expect(tokenize('東京タワー tokyo')).toEqual(['東', '京', 'タ', 'ワ', 'ー', 'tokyo']);
  });

  it('cuts very long terms', () => {
    const [term] = tokenize('x'.repeat(500));
    expect(term.length).toBe(MAX_TERM_LENGTH);
  });

  it('gives nothing for punctuation only', () => {
    expect(tokenize(' --- !!! ')).toEqual([]);
  });

  it('takes the last distinct query term as the prefix', () => {
    expect(queryTerms('Deploy the serv')).toEqual({ exact: ['deploy', 'the'], prefix: 'serv' });
    expect(queryTerms('a a')).toEqual({ exact: [], prefix: 'a' });
    expect(queryTerms('  ')).toEqual({ exact: [], prefix: undefined });
  });
});
