import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

export default defineConfig({
  plugins: [solid()],
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npm run dev` talks to a gateway started by `npm start` on 8080.
    proxy: { '/ws': { target: 'ws://127.0.0.1:8080', ws: true } },
  },
});
