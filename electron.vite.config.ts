import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      // Packages stay in node_modules (required at run time), as electron-vite 6 does by default.
      externalizeDeps: true,
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          cli: resolve(__dirname, 'main/cli/index.ts'),
          // Spreadsheets are read in a worker thread (main/bulk/import-runner.ts finds it beside these).
          'import-worker': resolve(__dirname, 'main/bulk/import-worker.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload cannot require() packages: it imports only the zod-free channel names
    // (common/contract/channels.ts) and the API builder, and bundles them.
    build: {
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    // Chinese texts as UTF-8 (module scripts always are), not \uXXXX escapes that make them twice as long.
    esbuild: { charset: 'utf8' },
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: 'esbuild',
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html') },
        onwarn(warning, warn) {
          // Ant Design marks its modules "use client" (for React Server Components): meaningless here.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  },
});
