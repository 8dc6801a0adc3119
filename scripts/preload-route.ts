// A Vite plugin: index.html preloads one lazily loaded route (its module, the modules it imports that
// the entry does not, and its CSS), so it downloads alongside the entry instead of one round trip
// after the entry has run. Used for the pairing page, the first screen of every new visitor.
import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

export function preloadRoute(sourceFile: string): Plugin {
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
          ...modules.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: base + file },
            injectTo: 'head' as const,
          })),
          // A preload, not a stylesheet: it must not hold up the paint of other routes. Vite's loader
          // then adds the stylesheet from the cache when the route opens.
          ...[...css].map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: base + file },
            injectTo: 'head' as const,
          })),
        ];
        return tags;
      },
    },
  };
}
