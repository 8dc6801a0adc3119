import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanOrigins, parsePublicUrl } from './addresses';
import { qrMatrix } from '../../src/lib/qrcode';
import { terminalQr } from '../terminal-qr';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal }) as NetworkInterfaceInfo;

describe('lanOrigins', () => {
  const interfaces = {
    lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
    wlan0: [nic('192.168.1.23', 'IPv4'), nic('fe80::1', 'IPv6')],
    eth0: [nic('10.0.0.5', 'IPv4'), nic('169.254.3.3', 'IPv4')],
  };
  it('lists every external IPv4 address when listening on all interfaces', () => {
    expect(lanOrigins('0.0.0.0', 8080, false, interfaces)).toEqual([
      'http://192.168.1.23:8080',
      'http://10.0.0.5:8080',
    ]);
    expect(lanOrigins('::', 8443, true, interfaces)).toEqual(['https://192.168.1.23:8443', 'https://10.0.0.5:8443']);
  });
  it('is the host itself when listening on one address, and nothing on loopback', () => {
    expect(lanOrigins('192.168.1.23', 80, false, interfaces)).toEqual(['http://192.168.1.23:80']);
    expect(lanOrigins('127.0.0.1', 80, false, interfaces)).toEqual([]);
  });
});

describe('parsePublicUrl', () => {
  it('keeps the origin', () => {
    expect(parsePublicUrl('https://iris.example.org/')).toBe('https://iris.example.org');
    expect(parsePublicUrl('https://iris.example.org:8443')).toBe('https://iris.example.org:8443');
  });
  it('refuses what is not an http(s) origin', () => {
    for (const bad of [
      'iris.example.org',
      'ftp://x.org',
      'https://x.org/app',
      'https://x.org/?a=1',
      'https://u:p@x.org',
    ]) {
      expect(() => parsePublicUrl(bad), bad).toThrow();
    }
  });
});

describe('terminalQr', () => {
  it('draws every module of the code, two rows a line, inside a light border', () => {
    const text = 'https://iris.example.org/#/pair?url=wss%3A%2F%2Firis.example.org%2Fws&token=abc';
    const matrix = qrMatrix(text);
    const lines = terminalQr(text, false);
    const size = matrix.length + 4;
    expect(lines).toHaveLength(Math.ceil(size / 2));
    // Read the modules back from the characters.
    const read = (row: number, col: number) => {
      const ch = lines[Math.floor(row / 2)]![col] ?? ' ';
      return row % 2 === 0 ? ch === '█' || ch === '▀' : ch === '█' || ch === '▄';
    };
    for (let r = 0; r < matrix.length; r++)
      for (let c = 0; c < matrix.length; c++) expect(read(r + 2, c + 2)).toBe(matrix[r]![c]);
  });
  it('paints light and dark explicitly for a terminal', () => {
    const line = terminalQr('x', true)[0]!;
    expect(line).toMatch(/\x1b\[97;107m▀/);
    expect(line.endsWith('\x1b[0m')).toBe(true);
  });
});
