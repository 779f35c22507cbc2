import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API in development (`npm run dev` at the root); it serves /graphql (HTTP and graphql-ws), /api and /media. */
const API = process.env.MIXCRATE_API ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: API, ws: true },
      '/api/': { target: API },
      '/media/': { target: API },
    },
  },
  preview: { port: 4173 },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Every route is its own chunk (see src/router.tsx); warn if a single chunk grows past this.
    chunkSizeWarningLimit: 300,
  },
});
