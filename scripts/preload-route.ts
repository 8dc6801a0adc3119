// A Vite plugin: index.html preloads one lazily loaded route (its module, the modules it imports that
// the entry does not, and its CSS), so it downloads alongside the entry instead of one round trip
// after the entry has run. Used for the pairing page, the first screen of every new visitor and of no
// one else: the files are listed on a tag of public/pair-preload.js, which adds the preloads only when
// this browser has not paired (a paired one opens a lane and would download them for nothing).
import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

export function preloadRoute(sourceFile: string, script: string): Plugin {
  let target = '';
  let base = '/';
  return {
    name: 'iris:preload-route',
    apply: 'build',
    configResolved(config) {
      target = resolve(config.root, sourceFile);
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        const entry = ctx.chunk;
        if (!bundle || !entry) return [];
        const route = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === target);
        if (!route || route.type !== 'chunk')
          throw new Error(`preload-route: no chunk of its own for ${sourceFile} (is it imported lazily?)`);
        // What the entry already loads (and preloads) statically.
        const loaded = new Set<string>();
        const visit = (file: string) => {
          if (loaded.has(file)) return;
          loaded.add(file);
          const chunk = bundle[file];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(entry.fileName);
        const modules: string[] = [];
        const css = new Set<string>();
        const collect = (file: string) => {
          if (loaded.has(file)) return;
          loaded.add(file);
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk') return;
          modules.push(file);
          chunk.viteMetadata?.importedCss.forEach((f) => css.add(f));
          chunk.imports.forEach(collect);
        };
        collect(route.fileName);
        const tags: HtmlTagDescriptor[] = [
          {
            tag: 'script',
            attrs: {
              src: base + script,
              'data-modules': modules.map((file) => base + file).join(' '),
              'data-styles': [...css].map((file) => base + file).join(' '),
              // It need not hold up the parser (and with it the entry, which runs once the page is parsed).
              async: true,
            },
            injectTo: 'head',
          },
        ];
        return tags;
      },
    },
  };
}
