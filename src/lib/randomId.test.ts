import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomId } from './randomId';
import { sha256Hex } from './sha256';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

/** crypto as a plain-http page has it: getRandomValues, no randomUUID, no subtle. */
function insecureCrypto(): void {
  const real = globalThis.crypto;
  vi.stubGlobal('crypto', { getRandomValues: real.getRandomValues.bind(real) });
}

describe('randomId and sha256Hex outside a secure context', () => {
  it('makes version-4 UUIDs from getRandomValues, all different', () => {
    insecureCrypto();
    const ids = Array.from({ length: 200 }, randomId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(200);
  });

  it('hashes as WebCrypto does', async () => {
    const bytes = new TextEncoder().encode('the notes, at last\n') as Uint8Array<ArrayBuffer>;
    const secure = await sha256Hex(bytes);
    insecureCrypto();
    expect(await sha256Hex(bytes)).toBe(secure);
    expect(await sha256Hex(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
