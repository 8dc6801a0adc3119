// A Vite plugin that fails the build unless index.html's first module script is the chunk `name` (a group in
// vite.config.ts) and that chunk imports no other. The browser fetches, compiles and runs a module graph as
// a whole: a chunk with its own script, importing nothing, runs as soon as it has arrived and the page is
// parsed, while the entry (which imports it, and so runs after it) is still downloading. Vite writes that
// script itself (an entry made only of imports is replaced by a script for each chunk it imports, imported
// ones first); one import of a module outside the group would make the chunk import the entry's, and wait
// for all of it, with nothing to show.
import type { Plugin } from 'vite';

export function checkFirstScript(name: string): Plugin {
  let base = '/';
  return {
    name: 'iris:check-first-script',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return;
        const chunk = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.name === name);
        if (chunk?.type !== 'chunk') throw new Error(`check-first-script: no chunk "${name}"`);
        if (chunk.imports.length > 0)
          throw new Error(
            `check-first-script: "${name}" imports ${chunk.imports.join(', ')}; its group must hold all it imports`,
          );
        const first = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
        if (first !== base + chunk.fileName)
          throw new Error(`check-first-script: index.html's first module script is ${first}, not ${chunk.fileName}`);
      },
    },
  };
}
