// Every frame type named by either spec file is modelled by the unions (54 distinct names).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_FRAME_TYPES, SERVER_FRAME_TYPES } from './frames';

const specDir = resolve(process.cwd(), '../shared/spec');

function schemaTypes() {
  const schema = JSON.parse(readFileSync(resolve(specDir, 'frames.schema.json'), 'utf8'));
  return {
    server: Object.keys(schema.frame_types.server_to_app),
    client: Object.keys(schema.frame_types.app_to_server),
  };
}

function protocolPyTypes(): string[] {
  const src = readFileSync(resolve(specDir, 'protocol.py'), 'utf8');
  return [...src.matchAll(/^TYPE_[A-Z_]+\s*=\s*"([^"]+)"/gm)].map((m) => m[1]);
}

describe('frame type coverage', () => {
  const modelled = new Set<string>([...SERVER_FRAME_TYPES, ...CLIENT_FRAME_TYPES]);

  it('models every server_to_app type of the schema in the server union', () => {
    const missing = schemaTypes().server.filter((t) => !(SERVER_FRAME_TYPES as readonly string[]).includes(t));
    expect(missing).toEqual([]);
  });

  it('models every app_to_server type of the schema in the client union', () => {
    const missing = schemaTypes().client.filter((t) => !(CLIENT_FRAME_TYPES as readonly string[]).includes(t));
    expect(missing).toEqual([]);
  });

  it('models every TYPE_ constant of protocol.py', () => {
    const py = protocolPyTypes();
    expect(py.length).toBeGreaterThan(40);
    expect(py.filter((t) => !modelled.has(t))).toEqual([]);
  });

  it('covers the 54 distinct names of both files, and nothing invented', () => {
    const { server, client } = schemaTypes();
    const spec = new Set([...server, ...client, ...protocolPyTypes()]);
    expect(spec.size).toBe(54);
    expect([...modelled].filter((t) => !spec.has(t))).toEqual([]);
    expect(modelled.size).toBe(54);
  });
});
