import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { check, importSpecifiers } from './check-imports';

const trees: string[] = [];

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  trees.push(root);
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  return root;
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const CLEAN = {
  'src/protocol/frames.ts': `export type Frame = { type: string };\n`,
  'src/store/reducer.ts': `import type { Frame } from '../protocol/frames';\nexport const reduce = (f: Frame) => f;\n`,
  'src/net/connection.ts': `import { reduce } from '../store/reducer';\nimport { Frame } from '../protocol/frames.js';\nexport { reduce };\n`,
  'src/app/App.tsx': `import { reduce } from '../net/connection';\nexport const App = () => reduce;\n`,
  'src/main.tsx': `import { App } from './app/App';\nApp();\n`,
  'worker/sw.ts': `import { reduce } from '../src/store/reducer';\nreduce;\n`,
  'server/gateway/index.ts': `import { type Frame } from '../../src/protocol/frames';\nimport { hub } from './hub';\n`,
  'server/gateway/hub.ts': `// import { x } from './index';\nexport const hub = 1;\n`,
};

describe('check-imports', () => {
  it('passes a tree that keeps the rules', () => {
    expect(check(tree(CLEAN), [])).toEqual({ errors: [], allowed: 0 });
  });

  it('fails on a cycle, an upward import, the app imported from outside and the worker reaching the app', () => {
    const root = tree({
      ...CLEAN,
      'server/gateway/hub.ts': `import { x } from './index';\nexport const hub = 1;\n`,
      'src/store/reducer.ts': `import { open } from '../net/connection';\n`,
      'src/push/bridge.ts': `import { App } from '../app/App';\n`,
      'worker/push.ts': `export { App } from '../src/app/App';\n`,
    });
    const { errors } = check(root, []);
    expect(errors).toEqual(
      expect.arrayContaining([
        'server/gateway/hub.ts → server/gateway/index.ts: [cycle] in a circle of 2 files',
        'server/gateway/index.ts → server/gateway/hub.ts: [cycle] in a circle of 2 files',
        'src/store/reducer.ts → src/net/connection.ts: [upward] src/store (layer 1) imports src/net (layer 2)',
        'src/store/reducer.ts → src/net/connection.ts: [cycle] in a circle of 2 files',
        'src/push/bridge.ts → src/app/App.tsx: [app-private] src/app is imported by nothing outside it',
        'worker/push.ts → src/app/App.tsx: [app-private] src/app is imported by nothing outside it',
      ]),
    );
    expect(errors).toHaveLength(7); // and the net → store edge of the store/net circle
  });

  it('counts an allowlisted violation, and fails on an entry that no longer occurs', () => {
    const root = tree({ ...CLEAN, 'src/protocol/frames.ts': `import '../store/reducer';\n` });
    const upward = { rule: 'upward' as const, from: 'src/protocol/frames.ts', to: 'src/store/reducer.ts', why: 'test' };
    const cycle = { rule: 'cycle' as const, from: 'src/protocol/frames.ts', to: 'src/store/reducer.ts', why: 'test' };
    const cycleBack = {
      rule: 'cycle' as const,
      from: 'src/store/reducer.ts',
      to: 'src/protocol/frames.ts',
      why: 'test',
    };
    expect(check(root, [upward, cycle, cycleBack])).toEqual({ errors: [], allowed: 3 });
    expect(check(tree(CLEAN), [upward]).errors).toEqual([
      'src/protocol/frames.ts → src/store/reducer.ts: [allowlist] upward no longer occurs: remove its entry',
    ]);
  });

  it('fails on shipped src or worker code importing server/, not on their tests or src/testing', () => {
    const root = tree({
      ...CLEAN,
      'server/gateway/standalone.ts': `export const startGateway = 1;\n`,
      'src/net/session.ts': `import { startGateway } from '../../server/gateway/standalone';\n`,
      'worker/push/call.ts': `import type { X } from '../../server/gateway/standalone';\n`,
      'src/net/session.test.ts': `import { startGateway } from '../../server/gateway/standalone';\n`,
      'worker/push/call.test.ts': `import { startGateway } from '../../server/gateway/standalone';\n`,
      'src/testing/gateway.ts': `import { startGateway } from '../../server/gateway/standalone';\n`,
    });
    expect(check(root, []).errors).toEqual([
      'src/net/session.ts → server/gateway/standalone.ts: [server] only tests in src/ and worker/ import server/',
      'worker/push/call.ts → server/gateway/standalone.ts: [server] only tests in src/ and worker/ import server/',
    ]);
  });

  it('fails when the service worker reaches solid-js or src/app through any chain of imports', () => {
    const root = tree({
      ...CLEAN,
      'src/store/live.ts': `import { createSignal } from 'solid-js';\nimport { render } from 'solid-js/web';\n`,
      'src/store/reducer.ts': `import '../protocol/frames';\nimport './live';\nimport Dexie from 'dexie';\n`,
    });
    expect(check(root, []).errors).toEqual([
      'src/store/live.ts → solid-js: [worker-bundle] the service worker bundles solid-js: worker/sw.ts → src/store/reducer.ts → src/store/live.ts',
      'src/store/live.ts → solid-js/web: [worker-bundle] the service worker bundles solid-js/web: worker/sw.ts → src/store/reducer.ts → src/store/live.ts',
    ]);
    // src/app reached from the worker is named by its whole path, beside the app-private line of the one import.
    const app = tree({ ...CLEAN, 'src/store/reducer.ts': `import '../app/App';\n` });
    expect(check(app, []).errors).toEqual(
      expect.arrayContaining([
        'src/store/reducer.ts → src/app/App.tsx: [worker-bundle] the service worker reaches src/app: worker/sw.ts → src/store/reducer.ts → src/app/App.tsx',
      ]),
    );
    // The app itself may use solid-js: only what the worker's entry reaches counts.
    const appOnly = tree({ ...CLEAN, 'src/app/App.tsx': `import { render } from 'solid-js/web';\n` });
    expect(check(appOnly, []).errors).toEqual([]);
  });

  it('fails on a src folder that has no layer', () => {
    const { errors } = check(tree({ ...CLEAN, 'src/gadgets/a.ts': `export {};\n` }), []);
    expect(errors).toEqual([
      'src/gadgets/a.ts: [layer] a src folder with no layer: add it to LAYERS in scripts/check-imports.ts',
    ]);
  });

  it('reads every import form and none in comments or strings', () => {
    const code = [
      `import a from './a';`,
      `import type { B } from "./b";`,
      `import {\n  c,\n  d,\n} from './c';`,
      `export * from './e';`,
      `export { f } from './f';`,
      `import './g.css';`,
      `const h = await import('./h');`,
      `/* import x from './x'; */`,
      `const s = "import y from './y'";`,
    ].join('\n');
    expect(importSpecifiers(code)).toEqual(['./a', './b', './c', './e', './f', './g.css', './h']);
  });
});
