import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      // Packages stay in node_modules (required at run time), as electron-vite 6 does by default.
      externalizeDeps: true,
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          cli: resolve(__dirname, 'main/cli/index.ts'),
          // Spreadsheets are read in a worker thread (main/bulk/import-runner.ts finds it beside these).
          'import-worker': resolve(__dirname, 'main/bulk/import-worker.ts'),
          // An older store is upgraded in a worker thread (main/store/upgrade.ts finds it beside these).
          'upgrade-worker': resolve(__dirname, 'main/store/upgrade-worker.ts'),
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
      rolldownOptions: { input: { index: resolve(__dirname, 'preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // Minified by Oxc (Vite 8), which keeps Chinese texts as UTF-8, not \uXXXX escapes twice as long.
      minify: 'oxc',
      chunkSizeWarningLimit: 4096,
      rolldownOptions: {
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
