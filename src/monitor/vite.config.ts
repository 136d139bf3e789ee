import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** Builds the monitor web app (src/monitor/app) into dist/monitor, which `verbtree serve` serves at /monitor/. */
export default defineConfig({
  root: fileURLToPath(new URL('./app', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/monitor', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
});
