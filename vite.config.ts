import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import solid from 'vite-plugin-solid';
import { manifest } from './pwa.manifest.ts';
import { buildStamp } from './server/http/build-stamp.ts';
import { precompress } from './server/http/precompress.ts';
import { blockingScriptLast } from './scripts/blocking-script-last.ts';
import { preloadRoute } from './scripts/preload-route.ts';
import { workerOneFile } from './scripts/worker-one-file.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: {
    __APP_VERSION__: JSON.stringify(process.env.IRIS_BUILD_ID ? `${version}+${process.env.IRIS_BUILD_ID}` : version),
  },
  plugins: [
    solid(),
    // The first screen of a new visitor arrives with the entry, in one round trip.
    preloadRoute('src/app/pages/PairPage.tsx', 'pair-preload.js'),
    // After the entry's tags: blocking, it would hold back their requests (see the plugin).
    blockingScriptLast('theme-boot.js'),
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
        // One file, as the plugin asks, without the bundler's deprecation warning on every build.
        buildPlugins: { vite: [workerOneFile()] },
      },
      devOptions: { enabled: false },
    }),
    // Last: after the service worker is written, so sw.js gets its copies too.
    precompress(),
    // Very last: marks the build whole (npm start rebuilds a folder without the mark).
    buildStamp(),
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
            // What the pairing page (preloaded with the entry, so fetched by every first load) shares with
            // lazily loaded chunks (the pairing link, which the Markdown pipeline reads; the connection's
            // words, which the app frame's banner uses) comes as one file, not two of under 1 KiB each, every
            // one a request and compressed on its own. The modal dialog is not among them: the pairing page
            // asks with one only of a paired browser (ReplacePairingDialog, loaded then).
            {
              name: 'pairingShared',
              test: /src\/(lib\/pairingLink|app\/connectionText)\./,
            },
            // Small modules that the lane's chunks share (the reducer, the session, the app frame and the lane
            // page) with each other or with a chunk loaded later (a dialog, the media viewer, the Markdown
            // pipeline) come as one file rather than fifteen tiny ones, each a request and compressed on its
            // own (each file's gzip starts with an empty dictionary: 1.4 KiB more, summed, for these).
            {
              name: 'laneShared',
              test: /src\/(client\/commands|store\/models\/(toasts|media|mediaCache|mediaSettings|sync|outbox|lanes|pickers)|lib\/(format|safeText|yieldToPage)|protocol\/(frames|codec|index|mediaLimits)|net\/timers|media\/canRecord|app\/components\/(shell\/(mediaQuery|Icon|backCloses|focusTrap)|status\/toastWrites|channels\/channelLook|composer\/longText|media\/MediaIcon|messages\/(useAgentName|replyTarget|icons|copyText|markdownModule|listContext))|app\/(loadWhenIdle|lazy\/lazyPart))\.tsx?$/,
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
