// The import-graph check in `npm test` (ARCHITECTURE.md has the rules it enforces).
// A small resolver over relative imports: no compiler, so it runs in well under a second.
// Every import counts, `import type` too: a type cycle is still a circle a reader has to follow.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Lower may never import higher; same rank may import each other. */
export const LAYERS: Record<string, number> = {
  'src/protocol': 0, // frame types, parse/encode, guards, lane addressing
  'src/lib': 0, // pure helpers (markdown, highlight, qrcode): no app, no store, no protocol state
  'src/store': 1, // Dexie, the reducer, models
  'src/search': 1, // the search index over the store's messages
  'src/net': 2, // the connection, its state, the frame pipeline, transfers
  'src/client': 2, // the outbox and commands
  'src/media': 2, // media pulling, eviction, uploads: reads the store, talks through net
  'src/push': 2, // push registration and the bridge to the service worker
  'src/share': 2, // the share target's inbox (files handed over by the service worker)
  'src/pwa': 2, // service-worker registration and updates
  'src/runtime': 3, // built once from main.tsx
  'src/testing': 3, // unit-test support (fresh databases, a test runtime): imported by tests only
  'src/app': 4, // components, pages, via a Solid context
  'src/main.tsx': 5, // composition root: builds the runtime, renders the app
};

/** The worker sits beside the app: it may import src below the runtime, never the runtime or the app. */
export const WORKER_MAX_LAYER = 2;

/** Trees whose cycles are errors; trees checked for imports of src/app. */
export const CYCLE_ROOTS = ['src', 'worker', 'server'];
export const APP_PRIVATE_ROOTS = ['src', 'worker', 'server', 'e2e', 'bench', 'scripts'];
// src/main.tsx renders the app: the one import of src/app from outside it.

/** What ships to the browser: only its tests (and src/testing, their support) may import server/. */
export const BROWSER_ROOTS = ['src', 'worker'];

/** The service worker's entry (`filename` in vite.config.ts): every file it reaches ships in sw.js. */
export const WORKER_ENTRIES = ['worker/sw.ts'];
/** The UI framework never ships in the service worker: no DOM there, and its bytes would load on every wake. */
export const WORKER_FORBIDDEN_PACKAGES = ['solid-js', '@solidjs/router', '@tanstack/solid-virtual'];

export type Rule = 'cycle' | 'app-private' | 'upward' | 'worker' | 'server' | 'worker-bundle';

export interface Violation {
  rule: Rule;
  from: string;
  to: string;
  detail: string;
}

/** A violation known today, to be fixed by another slice of #15; the integrator empties this list. */
export interface Allowed {
  rule: Rule;
  from: string;
  to: string;
  why: string;
}

// Filled from `npm run check:imports` on 2026-12-01; each entry is removed when its import is.
export const ALLOWLIST: Allowed[] = [];

const EXTS = ['.ts', '.tsx', '.mts', '.js'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'fixtures', '.git', 'test-results', 'playwright-report']);

function listSources(root: string, dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return; // a tree that does not exist (e.g. no src/runtime yet) has no imports
  }
  for (const name of names) {
    const rel = dir ? `${dir}/${name}` : name;
    const full = join(root, rel);
    if (statSync(full).isDirectory()) {
      if (!SKIP_DIRS.has(name)) listSources(root, rel, out);
    } else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
}

// One left-to-right scan: a comment or a string is consumed whole, so an import written inside one is not read.
const SCAN_RE = new RegExp(
  [
    String.raw`\/\*[\s\S]*?\*\/`,
    String.raw`\/\/[^\n]*`,
    String.raw`\b(?:import|export)\s*(?:type\s+)?(?:[\w$*{}\s,]+?\s*from\s*)?['"]([^'"\n]+)['"]`,
    String.raw`\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)`,
    String.raw`'(?:\\.|[^'\\\n])*'`,
    String.raw`"(?:\\.|[^"\\\n])*"`,
    String.raw`\x60(?:\\.|[^\x60\\])*\x60`,
  ].join('|'),
  'g',
);

export function importSpecifiers(code: string): string[] {
  const specs: string[] = [];
  for (const m of code.matchAll(SCAN_RE)) {
    const spec = m[1] ?? m[2];
    const before = m.index > 0 ? code[m.index - 1] : '';
    if (spec !== undefined && before !== '.' && before !== '$') specs.push(spec);
  }
  return specs;
}

function resolveRelative(root: string, from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined; // packages and node: builtins are outside the graph
  const bare = spec.replace(/[?#].*$/, '');
  const base = join(dirname(join(root, from)), bare);
  const candidates = [base, ...EXTS.map((e) => base + e), ...EXTS.map((e) => join(base, 'index' + e))];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) return relative(root, c).split(sep).join('/');
    } catch {
      // not this one
    }
  }
  return undefined;
}

export type Graph = Map<string, string[]>;

/**
 * file → the files it imports (relative imports that resolve to a source file), over `roots`;
 * `packages`, when given, gets file → the packages it imports (bare specifiers, not `node:` builtins).
 */
export function buildGraph(root: string, roots: string[], packages?: Graph): Graph {
  const graph: Graph = new Map();
  for (const top of roots) {
    const files: string[] = [];
    listSources(root, top, files);
    for (const file of files) {
      const targets = new Set<string>();
      const bare = new Set<string>();
      for (const spec of importSpecifiers(readFileSync(join(root, file), 'utf8'))) {
        const to = resolveRelative(root, file, spec);
        if (to && /\.(ts|tsx|mts)$/.test(to)) targets.add(to);
        else if (!/^(\.|\/|node:|virtual:)/.test(spec)) bare.add(spec);
      }
      graph.set(file, [...targets].sort());
      packages?.set(file, [...bare].sort());
    }
  }
  return graph;
}

export function layerOf(file: string): { name: string; rank: number } | undefined {
  let best: string | undefined;
  for (const name of Object.keys(LAYERS)) {
    if ((file === name || file.startsWith(name + '/')) && (!best || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : { name: best, rank: LAYERS[best] };
}

function under(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir + '/');
}

/** Strongly connected components of more than one file (Tarjan), each reported once per edge inside it. */
function cycles(graph: Graph, inside: (file: string) => boolean): Violation[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!inside(w) || !graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (inside(v) && !index.has(v)) visit(v);

  const out: Violation[] = [];
  for (const component of components) {
    const members = new Set(component);
    const selfLoop = component.length === 1 && (graph.get(component[0]) ?? []).includes(component[0]);
    if (component.length === 1 && !selfLoop) continue;
    for (const from of [...members].sort()) {
      for (const to of graph.get(from) ?? []) {
        if (members.has(to)) {
          out.push({ rule: 'cycle', from, to, detail: `in a circle of ${members.size} files` });
        }
      }
    }
  }
  return out;
}

const isTest = (file: string): boolean => /\.test\.tsx?$/.test(file);

export function findViolations(graph: Graph): Violation[] {
  const out: Violation[] = [];
  for (const top of CYCLE_ROOTS) out.push(...cycles(graph, (f) => under(f, top)));
  for (const [from, targets] of graph) {
    for (const to of targets) {
      // The browser's code cannot run the server's (node:fs, ws, the gateway): its tests start a gateway.
      if (under(to, 'server') && BROWSER_ROOTS.some((r) => under(from, r))) {
        if (!isTest(from) && !under(from, 'src/testing'))
          out.push({ rule: 'server', from, to, detail: 'only tests in src/ and worker/ import server/' });
        continue;
      }
      // Test support is for tests, from any layer; shipped code never reaches it.
      if (under(to, 'src/testing') && !under(from, 'src/testing')) {
        if (!isTest(from)) out.push({ rule: 'upward', from, to, detail: 'src/testing is imported by tests only' });
        continue;
      }
      if (under(to, 'src/app') && !under(from, 'src/app') && from !== 'src/main.tsx') {
        out.push({ rule: 'app-private', from, to, detail: 'src/app is imported by nothing outside it' });
        continue; // one line per import: the app rule says it all
      }
      if (under(from, 'worker') && under(to, 'src')) {
        const layer = layerOf(to);
        if (!layer || layer.rank > WORKER_MAX_LAYER) {
          out.push({
            rule: 'worker',
            from,
            to,
            detail: `the worker may import src below the runtime, not ${layer?.name ?? to}`,
          });
        }
        continue;
      }
      if (under(from, 'src') && under(to, 'src')) {
        const a = layerOf(from);
        const b = layerOf(to);
        if (a && b && b.rank > a.rank) {
          out.push({
            rule: 'upward',
            from,
            to,
            detail: `${a.name} (layer ${a.rank}) imports ${b.name} (layer ${b.rank})`,
          });
        }
      }
    }
  }
  return out;
}

const isForbiddenInWorker = (spec: string): boolean =>
  WORKER_FORBIDDEN_PACKAGES.some((p) => spec === p || spec.startsWith(p + '/'));

/**
 * What the service worker bundles: every file reached from `WORKER_ENTRIES`, however indirectly, must stay
 * out of src/app and import no UI package. The direct rules above cannot see a src/store file that starts
 * importing solid-js, which would put the framework in sw.js through the worker's import of the store.
 */
export function findWorkerBundleViolations(graph: Graph, packages: Graph, entries = WORKER_ENTRIES): Violation[] {
  const via = new Map<string, string | undefined>(); // reached file → the file that first reached it
  const queue = entries.filter((e) => graph.has(e));
  for (const e of queue) via.set(e, undefined);
  for (let i = 0; i < queue.length; i++) {
    for (const to of graph.get(queue[i]) ?? []) {
      if (!via.has(to)) {
        via.set(to, queue[i]);
        queue.push(to);
      }
    }
  }
  const path = (file: string): string => {
    const chain: string[] = [];
    for (let f: string | undefined = file; f !== undefined; f = via.get(f)) chain.unshift(f);
    return chain.join(' → ');
  };
  const out: Violation[] = [];
  for (const file of queue) {
    const parent = via.get(file);
    if (parent !== undefined && under(file, 'src/app')) {
      out.push({
        rule: 'worker-bundle',
        from: parent,
        to: file,
        detail: `the service worker reaches src/app: ${path(file)}`,
      });
    }
    for (const spec of packages.get(file) ?? []) {
      if (isForbiddenInWorker(spec)) {
        out.push({
          rule: 'worker-bundle',
          from: file,
          to: spec,
          detail: `the service worker bundles ${spec}: ${path(file)}`,
        });
      }
    }
  }
  return out;
}

const key = (v: { rule: Rule; from: string; to: string }): string => `${v.rule} ${v.from} -> ${v.to}`;

export interface Report {
  errors: string[];
  allowed: number;
}

/** Violations not in the allowlist, and allowlist entries that no longer occur, are errors. */
export function check(root: string, allowlist: Allowed[] = ALLOWLIST): Report {
  const packages: Graph = new Map();
  const graph = buildGraph(root, APP_PRIVATE_ROOTS, packages);
  const unknown = [...graph.keys()].filter((f) => under(f, 'src') && !layerOf(f));
  const found = [...findViolations(graph), ...findWorkerBundleViolations(graph, packages)];
  const allowedKeys = new Set(allowlist.map(key));
  const foundKeys = new Set(found.map(key));
  const errors: string[] = [];
  for (const f of unknown)
    errors.push(`${f}: [layer] a src folder with no layer: add it to LAYERS in scripts/check-imports.ts`);
  for (const v of found) if (!allowedKeys.has(key(v))) errors.push(`${v.from} → ${v.to}: [${v.rule}] ${v.detail}`);
  for (const a of allowlist) {
    if (!foundKeys.has(key(a)))
      errors.push(`${a.from} → ${a.to}: [allowlist] ${a.rule} no longer occurs: remove its entry`);
  }
  return { errors, allowed: found.filter((v) => allowedKeys.has(key(v))).length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const started = performance.now();
  const { errors, allowed } = check(root);
  for (const e of errors) console.log(e);
  const ms = Math.round(performance.now() - started);
  console.log(
    `check-imports: ${errors.length} error${errors.length === 1 ? '' : 's'}, ${allowed} allowlisted violation${allowed === 1 ? '' : 's'} remain (${ms} ms)`,
  );
  process.exitCode = errors.length ? 1 : 0;
}
