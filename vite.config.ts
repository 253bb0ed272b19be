// Vite build of the React back office: root src/client, output dist/ at the project root.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { packageSizes } from './scripts/bench-form/package-sizes.ts';

const root = fileURLToPath(new URL('./src/client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));
// The dev server forwards API calls to a locally started back end (npm run dev).
const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root,
  // packageSizes: which packages each output file is made of, for bundle-size.ts.
  plugins: [react(), packageSizes()],
  build: {
    outDir,
    emptyOutDir: true,
    // The manifest lets scripts/bench-form/bundle-size.ts measure what each route loads.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': backend, '/headers': backend },
  },
});
