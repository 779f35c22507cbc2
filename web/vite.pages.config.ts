import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * Pages the API serves beside the app (issue 19): the GraphQL explorer (GET /graphql) and the embed player's script
 * (/embed/mix/{id}). A build of their own into the same dist/, after the app's: sharing the app's build would let the
 * bundler regroup the app's chunks around GraphiQL's, and its manifest is the app's alone.
 */
export default defineConfig({
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json)$/, threshold: 1024 })],
  publicDir: false,
  build: {
    target: 'es2022',
    emptyOutDir: false,
    manifest: false,
    // GraphiQL is one large chunk by nature; the embed player stays tiny (a test holds it under 50 KB gzipped).
    chunkSizeWarningLimit: 2000,
    modulePreload: { polyfill: false },
    rollupOptions: { input: { explorer: 'explorer.html', embed: 'embed.html' } },
  },
});
