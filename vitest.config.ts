import solid from 'vite-plugin-solid';
import { defineConfig } from 'vitest/config';

const timeouts = { testTimeout: 20_000, hookTimeout: 20_000 };
// The Dexie build the app bundles (vite.config.ts says why), so unit tests run the same file.
const resolve = { alias: [{ find: /^dexie$/, replacement: 'dexie/dist/modern/dexie.mjs' }] };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'worker/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          ...timeouts,
        },
      },
      {
        // Components mounted in a DOM (happy-dom), compiled by Solid's JSX transform; vite-plugin-solid
        // resolves Solid's browser build for them (the reactive one the app runs), not its server build.
        plugins: [solid()],
        resolve,
        test: { name: 'dom', include: ['src/**/*.test.tsx'], environment: 'happy-dom', ...timeouts },
      },
    ],
  },
});
