import { describe, expect, it } from 'vitest';
import { fileLine, fileScript } from './script';

describe('fileScript', () => {
  it('streams one code block of N lines as M updates that add up to the whole text', () => {
    const script = fileScript(3000, 5000);
    expect(script.steps).toHaveLength(5000);
    const text = script.steps.map((s) => (s.kind === 'text' ? s.append : '')).join('');
    const code = /```ts\n([\s\S]*)\n```/.exec(text)![1]!;
    expect(code.split('\n')).toHaveLength(3000);
    expect(code.split('\n')[2999]).toBe(fileLine(3000));
    expect(text.length).toBeGreaterThan(150_000);
  });
});
