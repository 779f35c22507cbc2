import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** The API in development (`npm run dev` at the root); it serves /graphql (HTTP and graphql-ws), /api and /media. */
const API = process.env.MIXCRATE_API ?? 'http://127.0.0.1:4000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild
    ? [react()]
    : // Brotli and gzip copies of every text asset beside it: the server sends them as they are, spending no CPU per request.
      [react(), compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json)$/, threshold: 1024 })],
  // The server renderer (dist-server/) needs no copy of public/: the app's files are served from dist/.
  publicDir: isSsrBuild ? false : 'public',
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
    // .vite/manifest.json maps each screen to its chunks (the benchmark measures what the landing page downloads).
    manifest: true,
    // Every route is its own chunk (see src/router.tsx); warn if a single chunk grows past this.
    chunkSizeWarningLimit: 300,
  },
}));
