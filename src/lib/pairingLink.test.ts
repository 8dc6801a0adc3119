import { describe, expect, it } from 'vitest';
import { qrMatrix } from './qrcode';
import { isLocalOnly, isPairingUrl, pairingLink, readPairingLink } from './pairingLink';
import { qrPath } from './qrPath';

describe('pairing link', () => {
  it('puts the gateway and token in the fragment, encoded', () => {
    const link = pairingLink('https://iris.example/app/?x=1#/settings', 'wss://iris.example/ws', 'a&b=c #d');
    expect(link).toBe('https://iris.example/app/#/pair?url=wss%3A%2F%2Firis.example%2Fws&token=a%26b%3Dc%20%23d');
    const url = new URL(link);
    expect(url.search).toBe('');
    expect(url.pathname).toBe('/app/');
  });

  it('knows a link into its own pairing screen, however it is spelled', () => {
    const base = 'https://iris.example/';
    expect(isPairingUrl(pairingLink(base, 'wss://evil.example/ws', 't'), base)).toBe(true);
    for (const href of ['#/pair', '#/pair/', '#pair?token=x', '/#//pair?x', '#/%70air', '#/Pair;x'])
      expect(isPairingUrl(href, base), href).toBe(true);
    for (const href of ['#/c/pair', '#/pairing', '#/settings', 'https://other.example/#/pair', '/pair'])
      expect(isPairingUrl(href, base), href).toBe(false);
  });

  it('reads a scanned link back, and nothing from text that is not a pairing link', () => {
    const link = pairingLink('http://192.168.1.20:8080/', 'ws://192.168.1.20:8080/ws', 'a&b=c #d');
    expect(readPairingLink(link)).toEqual({ url: 'ws://192.168.1.20:8080/ws', token: 'a&b=c #d' });
    expect(readPairingLink(`${link}&lane=web%3Ademo`)).toEqual({
      url: 'ws://192.168.1.20:8080/ws',
      token: 'a&b=c #d',
      lane: 'web:demo',
    });
    expect(readPairingLink('https://example.org/')).toBeUndefined();
    expect(readPairingLink('#/pair?url=javascript%3Aalert(1)&token=x')).toBeUndefined();
    expect(readPairingLink('#/pair?url=wss%3A%2F%2Fh%2Fws')).toBeUndefined();
  });

  it('knows addresses a phone cannot reach', () => {
    expect(isLocalOnly('http://localhost:8080/')).toBe(true);
    expect(isLocalOnly('http://127.0.0.1:5173/')).toBe(true);
    expect(isLocalOnly('http://192.168.1.20:8080/')).toBe(false);
  });
});

describe('QR path', () => {
  it('draws one square per dark module, offset by the margin', () => {
    expect(
      qrPath(
        [
          [true, false],
          [false, true],
        ],
        4,
      ),
    ).toBe('M4 4h1v1h-1zM5 5h1v1h-1z');
  });

  it('encodes a long pairing link', () => {
    const matrix = qrMatrix(pairingLink('http://192.168.1.20:8080/', 'ws://192.168.1.20:8080/ws', 'x'.repeat(64)));
    expect(matrix.length).toBeGreaterThan(20);
    expect(matrix.every((row) => row.length === matrix.length)).toBe(true);
  });
});
