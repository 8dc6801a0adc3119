// A Vite plugin for vite-plugin-pwa's service worker build: 2.0.0 asks for one file with Rollup's
// `inlineDynamicImports`, which Vite 8's bundler (Rolldown) obeys but warns about on every build ("use
// codeSplitting: false instead"), a WARN line a new user sees on the first `npm start`. The same single
// file, asked for in Rolldown's words.
import type { Plugin } from 'vite';

export function workerOneFile(): Plugin {
  return {
    name: 'iris:worker-one-file',
    config(config) {
      const output = config.build?.rollupOptions?.output;
      if (!output || Array.isArray(output) || !('inlineDynamicImports' in output)) return;
      const inline = output.inlineDynamicImports;
      delete output.inlineDynamicImports;
      if (inline) (output as { codeSplitting?: boolean }).codeSplitting = false;
    },
  };
}
