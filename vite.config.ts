import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import solid from 'vite-plugin-solid';
import { manifest } from './pwa.manifest';
import { precompress } from './server/http/precompress';
import { preloadRoute } from './scripts/preload-route';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: {
    __APP_VERSION__: JSON.stringify(process.env.IRIS_BUILD_ID ? `${version}+${process.env.IRIS_BUILD_ID}` : version),
  },
  plugins: [
    solid(),
    // The first screen of a new visitor arrives with the entry, in one round trip.
    preloadRoute('src/app/pages/PairPage.tsx'),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'worker',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest,
      includeAssets: ['icons/*.png', 'icons/*.svg'],
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // The .br/.gz copies are for the HTTP server; the service worker caches each file once, decoded.
        globIgnores: ['screenshots/**', '**/*.br', '**/*.gz'],
      },
      devOptions: { enabled: false },
    }),
    // Last: after the service worker is written, so sw.js gets its copies too.
    precompress(),
  ],
  resolve: {
    // Dexie's own build for modern browsers (ES2018+, no ES5 helpers), the one its maintainer points
    // module bundlers to (dexie/Dexie.js#1582): the package's `import` entry is a wrapper around the ES5
    // build, kept for Node's dual-package hazard, which a browser bundle of one copy does not have.
    // Same release, same API; the first load is 2.0 KiB gzip smaller (67.4 to 65.4 KiB).
    alias: [{ find: /^dexie$/, replacement: 'dexie/dist/modern/dexie.mjs' }],
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically is one file: a lazily loaded chunk that shares some of
          // it (the media puller shares the store's models) would otherwise split it into several small
          // files, each a request before the first paint and each compressed on its own.
          groups: [
            { name: 'index', tags: ['$initial'] },
            // The dialog and its focus trap (which the app frame's drawer uses too) come as one file.
            { name: 'ModalDialog', test: /src\/app\/components\/shell\/(ModalDialog|focusTrap)\./ },
            // Small modules that the lane's chunks share (the reducer, the session and the lane page) come as
            // one file rather than five tiny ones, each a request and compressed on its own.
            {
              name: 'laneShared',
              test: /src\/(store\/models\/(toasts|media|mediaCache|mediaSettings|sync)|lib\/format|protocol\/(frames|codec|index|mediaLimits)|app\/components\/(shell\/mediaQuery|status\/toastWrites)|app\/loadWhenIdle)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` talks to a gateway started by `npm start` on 8080.
    proxy: { '/ws': { target: 'ws://127.0.0.1:8080', ws: true }, '/push': 'http://127.0.0.1:8080' },
  },
});
