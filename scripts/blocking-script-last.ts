// A Vite plugin: a parser-blocking classic script of index.html (the theme's, which must run before the
// first paint) goes at the end of <head>, after the entry's module script and stylesheet, so those are
// requested before the parser stops to wait for it. Chromium's preload scanner, which would otherwise find
// them early, is off in a page with a Content-Security-Policy <meta> (ours is a backstop for a copy served
// without this server's headers): written first, the blocking script held back the entry's request by one
// round trip.
import type { Plugin } from 'vite';

export function blockingScriptLast(script: string): Plugin {
  let base = '/';
  return {
    name: 'iris:blocking-script-last',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { src: base + script }, injectTo: 'head' }],
    },
  };
}
