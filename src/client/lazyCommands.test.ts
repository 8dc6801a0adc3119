import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { freshDb } from '../testing/db';
import type { Commands } from './commands';
import { PART_UNAVAILABLE } from '../lib/partUnavailable';
import { lazyCommands } from './lazyCommands';
import type { Transport } from './transport';

// What send needs of the transport: to be told the outbox has something.
const transport = () => ({ outboxChanged: () => undefined }) as unknown as Transport;

describe('the commands loaded on demand', () => {
  it('forwards every command, with its arguments and its result, once the code has loaded (once)', async () => {
    const real = await import('./commands');
    // Every command the real code has.
    const names = Object.keys(real.createCommands(freshDb(), transport)) as (keyof Commands)[];
    expect(names.length).toBeGreaterThan(20);
    const calls: unknown[][] = [];
    const code = vi.fn(async () => ({
      ...real,
      // Each command records its call (not a Proxy: a promise would take its `then` for a thenable's).
      createCommands: () =>
        Object.fromEntries(
          names.map((name) => [
            name,
            async (...args: unknown[]) => {
              calls.push([name, ...args]);
              return `${name} done`;
            },
          ]),
        ) as unknown as Commands,
    }));
    const commands = lazyCommands(freshDb(), transport, code);
    for (const name of names) {
      const call = commands[name] as (...args: unknown[]) => Promise<unknown>;
      await expect(call('web:default', 'x')).resolves.toBe(`${name} done`);
    }
    expect(calls).toEqual(names.map((name) => [name, 'web:default', 'x']));
    await commands.preloadCommands();
    expect(code).toHaveBeenCalledTimes(1);
  });

  it('says in words when the code cannot load, and tries again at the next command', async () => {
    const real = await import('./commands');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const code = vi
      .fn<() => Promise<typeof real>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/commands-x.js'))
      .mockResolvedValue(real);
    const db = freshDb();
    const commands = lazyCommands(db, transport, code);
    await expect(commands.send('web:default', 'hi')).rejects.toThrow(PART_UNAVAILABLE);
    // The message was not stored half-way: nothing ran.
    expect(await db.messages.count()).toBe(0);
    await expect(commands.preloadCommands()).resolves.toBeUndefined();
    expect(code).toHaveBeenCalledTimes(2);
    await expect(commands.send('web:default', 'hi again')).resolves.toEqual(expect.any(String));
    expect((await db.messages.toArray()).map((m) => m.text)).toEqual(['hi again']);
    warn.mockRestore();
  });
});
