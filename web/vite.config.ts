// Builds the dashboard into dist/web (hashed files under /app/assets/, a manifest for the size budget, gzip and brotli
// copies the server picks by Accept-Encoding), and serves it in development with the API proxied to a running Warden.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Replaced by the server with a fresh nonce per answer of index.html (src/http/routes/dashboard.ts says the same). */
const CSP_NONCE_PLACEHOLDER = 'WARDEN_CSP_NONCE';
/** Text assets smaller than this are served as they are: compressing them saves less than the headers cost. */
const COMPRESS_MIN_BYTES = 1024;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  publicDir: false,
  plugins: [react(), precompress()],
  // Mantine's <style> tags carry this nonce (main.tsx reads it back from the <meta property="csp-nonce">).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    // `npm run build` (scripts/build.ts) gives the folder of the build it is making instead.
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    manifest: true,
    target: 'es2022',
    // Hashed names everywhere (the default), so /app/assets/* can be cached for a year.
    rolldownOptions: {
      // No [PLUGIN_TIMINGS] report of which plugin took what share of the build: printed in yellow by every `npm ci`,
      // it read like an error. Warnings and errors about the code itself still print.
      checks: { bundlerTimings: false },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: {
    port: 5173,
    // The dev server stands in for Warden's /app: the API goes to a running Warden. The Host header is kept, so the
    // browser's Origin names the dev server's own host and cookie writes pass the same-origin check.
    proxy: {
      '/api': { target: process.env.WARDEN_URL ?? 'http://127.0.0.1:8080', ws: true },
    },
  },
});

/** Writes a .gz and a .br beside each compressible built asset. */
function precompress(): Plugin {
  return {
    name: 'warden-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = join(options.dir ?? '', 'assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json|txt)$/.test(name)) continue;
        const bytes = readFileSync(join(dir, name));
        if (bytes.length < COMPRESS_MIN_BYTES) continue;
        writeFileSync(join(dir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
        writeFileSync(
          join(dir, `${name}.br`),
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
        );
      }
    },
  };
}
