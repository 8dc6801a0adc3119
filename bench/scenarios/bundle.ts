// Scenario 1, bundle: the bytes a new visitor's first load needs (index.html's scripts, stylesheets and
// module preloads, the pairing page's files that public/pair-preload.js preloads for a browser not yet
// paired, and every module they import statically), raw, gzip and as served (the build's brotli
// copies); the same for a paired person's lane (the first load without the pairing page's preloads, and
// the lazily loaded chunks the lane needs: the app frame, the lane page, the gateway session and the
// reducer); and
// what the service worker precaches (dist/sw.js's manifest).
// Measured on the build, not in a browser; the budget is 100 KiB gzip of JS for the first screen.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parseAst } from 'vite';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import type { ScenarioContext } from '../lib/scenario';

const BUDGET_KIB = 100;

export const bundleDefs: FigureDef[] = [
  { key: 'jsRaw', figure: 'first-load JS (index.html + static imports), raw', unit: 'KiB' },
  {
    key: 'jsGzip',
    figure: 'first-load JS, gzip',
    unit: 'KiB',
    reference: { value: BUDGET_KIB, label: 'the 100 KiB budget' },
  },
  { key: 'jsBrotli', figure: 'first-load JS, brotli (the copies the server sends)', unit: 'KiB' },
  { key: 'cssRaw', figure: 'first-load CSS, raw', unit: 'KiB' },
  { key: 'cssGzip', figure: 'first-load CSS, gzip', unit: 'KiB' },
  {
    key: 'laneJsGzip',
    figure:
      "JS to open a lane (a paired browser's first load + app frame, lane page, session, reducer and commands chunks), gzip",
    unit: 'KiB',
    reference: { value: BUDGET_KIB, label: 'the 100 KiB budget' },
  },
  { key: 'laneJsBrotli', figure: 'JS to open a lane, brotli (as served)', unit: 'KiB' },
  { key: 'laneCssGzip', figure: 'CSS to open a lane, gzip', unit: 'KiB' },
  { key: 'precache', figure: 'precached by the service worker, raw', unit: 'KiB' },
  { key: 'precacheFiles', figure: 'files precached by the service worker', unit: 'count' },
];

/** Paths (relative to the build) of the static imports of one module. */
function staticImports(appDir: string, file: string): string[] {
  const code = readFileSync(join(appDir, file), 'utf8');
  const program = parseAst(code, { lang: 'js', sourceType: 'module' }) as unknown as {
    body: { type: string; source?: { value: unknown } | null }[];
  };
  const out: string[] = [];
  for (const node of program.body) {
    const isImport =
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportAllDeclaration' ||
      node.type === 'ExportNamedDeclaration';
    const source = node.source?.value;
    if (!isImport || typeof source !== 'string') continue;
    if (/^[a-z]+:/i.test(source)) continue; // absolute URL: not part of the build
    out.push(source.startsWith('/') ? source.slice(1) : posix.join(posix.dirname(file), source));
  }
  return out;
}

/** Every file reachable from `roots` (module scripts) through static imports. */
function closure(appDir: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    if (!existsSync(join(appDir, file))) throw new Error(`the build references ${file}, which is not in it`);
    seen.add(file);
    if (file.endsWith('.js')) queue.push(...staticImports(appDir, file));
  }
  return seen;
}

function sizes(appDir: string, files: Iterable<string>): { raw: number; gzip: number; brotli: number } {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const bytes = readFileSync(join(appDir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes).length; // zlib's default level, as a server compressing on the fly
    // What the server sends a browser that accepts brotli: the build's copy (absent when it would not be smaller).
    const copy = join(appDir, `${file}.br`);
    brotli += existsSync(copy) ? statSync(copy).size : Math.min(bytes.length, brotliCompressSync(bytes).length);
  }
  return { raw: raw / 1024, gzip: gzip / 1024, brotli: brotli / 1024 };
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}=["']([^"']+)["']`, 'i').exec(tag)?.[1];
}

/** The lazily loaded chunks a paired person's lane needs besides the first load (see App.tsx, Root.tsx, client/index.ts, client/lazyCommands.ts, context.ts). */
const LANE_CHUNKS = ['Shell', 'LanePage', 'session', 'reducer', 'commands'];

/** A lazily loaded chunk and the CSS Vite preloads with it (its __vite__mapDeps list), from whichever of `modules` imports it. */
function lazyChunk(appDir: string, modules: Iterable<string>, name: string): { js: string; css: string[] } {
  for (const file of modules) {
    const code = readFileSync(join(appDir, file), 'utf8');
    // `import('./X.js').then(…)` or not, then (within the statement) the list of files to preload with it.
    const call = new RegExp(
      `import\\([\`'"]\\./(${name}-[\\w-]+\\.js)[\`'"]\\)[^;]*?,\\s*__vite__mapDeps\\(\\[([\\d,\\s]*)\\]\\)`,
    ).exec(code);
    const chunk = call?.[1] ?? new RegExp(`import\\([\`'"]\\./(${name}-[\\w-]+\\.js)[\`'"]\\)`).exec(code)?.[1];
    if (!chunk) continue;
    const list = /m\.f=\[([^\]]*)\]/.exec(code)?.[1];
    const deps = list ? [...list.matchAll(/["'`]([^"'`]+)["'`]/g)].map((m) => m[1]!) : [];
    const indexes = call?.[2] ? call[2].split(',').map((n) => Number.parseInt(n, 10)) : [];
    const css = indexes.map((i) => deps[i]).filter((f): f is string => !!f && f.endsWith('.css'));
    return { js: posix.join(posix.dirname(file), chunk), css };
  }
  throw new NotMeasured(`no lazily loaded ${name} chunk found in the first-load modules`);
}

function precache(appDir: string): { bytes: number; files: number } {
  const sw = join(appDir, 'sw.js');
  if (!existsSync(sw)) throw new NotMeasured('no sw.js in the build');
  const code = readFileSync(sw, 'utf8');
  const urls = new Set<string>();
  for (const m of code.matchAll(
    /\{"revision":(?:"[^"]*"|null),"url":"([^"]+)"\}|\{"url":"([^"]+)","revision":(?:"[^"]*"|null)\}/g,
  ))
    urls.add((m[1] ?? m[2])!);
  if (urls.size === 0) throw new NotMeasured('no precache manifest found in sw.js');
  let bytes = 0;
  for (const url of urls) {
    const file = join(appDir, url.split(/[?#]/)[0]!);
    if (!existsSync(file)) throw new Error(`the precache manifest lists ${url}, which is not in the build`);
    bytes += statSync(file).size;
  }
  return { bytes: bytes / 1024, files: urls.size };
}

export async function bundle(ctx: ScenarioContext): Promise<Sample[]> {
  const appDir = ctx.site.appDir;
  const html = readFileSync(join(appDir, 'index.html'), 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
  const local = (url: string | undefined) => (url && !/^[a-z]+:/i.test(url) ? url.replace(/^\//, '') : undefined);
  const scriptTags = tags.filter((t) => /^<script/i.test(t));
  const modules = scriptTags.filter((t) => /type=["']module["']/i.test(t)).map((t) => local(attribute(t, 'src')));
  const classic = scriptTags.filter((t) => !/type=["']module["']/i.test(t)).map((t) => local(attribute(t, 'src')));
  const preloads = tags.filter((t) => /rel=["']modulepreload["']/i.test(t)).map((t) => local(attribute(t, 'href')));
  // What public/pair-preload.js preloads for a browser that has not paired (the pairing page): part of a
  // new visitor's first load, not of a paired person's lane.
  const pairingPreloads = scriptTags
    .flatMap((t) => (attribute(t, 'data-modules') ?? '').split(' '))
    .map((url) => local(url || undefined));
  const styles = tags.filter((t) => /rel=["']stylesheet["']/i.test(t)).map((t) => local(attribute(t, 'href')));
  const present = (list: (string | undefined)[]) => list.filter((s): s is string => !!s);
  if (present(modules).length === 0) throw new Error('index.html has no module script of its own');
  // Classic scripts (the theme's and the preload's boot scripts) load too, but import nothing.
  const pairedJs = new Set([...present(classic), ...closure(appDir, [...present(modules), ...present(preloads)])]);
  const js = new Set([...pairedJs, ...closure(appDir, present(pairingPreloads))]);
  const css = present(styles);
  const first = sizes(appDir, js);
  const firstCss = sizes(appDir, css);
  const sample: Sample = {
    jsRaw: first.raw,
    jsGzip: first.gzip,
    jsBrotli: first.brotli,
    cssRaw: firstCss.raw,
    cssGzip: firstCss.gzip,
  };
  await ctx.measure(sample, ['laneJsGzip', 'laneJsBrotli', 'laneCssGzip'], async () => {
    const laneJs = new Set(pairedJs);
    const laneCss = new Set(css);
    for (const name of LANE_CHUNKS) {
      const chunk = lazyChunk(appDir, laneJs, name); // found in the first load or a chunk added before it
      for (const file of closure(appDir, [chunk.js])) laneJs.add(file);
      for (const file of chunk.css) laneCss.add(file);
    }
    const lane = sizes(appDir, laneJs);
    sample.laneJsGzip = lane.gzip;
    sample.laneJsBrotli = lane.brotli;
    sample.laneCssGzip = sizes(appDir, laneCss).gzip;
  });
  await ctx.measure(sample, ['precache', 'precacheFiles'], async () => {
    const p = precache(appDir);
    sample.precache = p.bytes;
    sample.precacheFiles = p.files;
  });
  return [sample];
}
