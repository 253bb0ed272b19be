// Bundles the server (src/server/main.ts) and its migration files into dist-server/ for `npm start` (scripts/start.js).
// Packages stay in node_modules (the embedded PostgreSQL, argon2 and the rest are loaded from there as usual).
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Every source file sees its own folder as import.meta.dirname (paths to schemas/, workflows/, dist/), not the bundle's:
 * the reference is rewritten relative to the bundle, so the folder can move with the project.
 */
const ownDirname = (outDir) => ({
  name: 'own-dirname',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const text = await readFile(file, 'utf8');
      if (!text.includes('import.meta.dirname')) return undefined;
      const relative = path.relative(outDir, path.dirname(file)).split(path.sep).join('/');
      return { contents: text.replaceAll('import.meta.dirname', `__fileURLToPath(new URL(${JSON.stringify(relative)}, import.meta.url))`), loader: 'ts' };
    });
  },
});

export async function buildServer(root, outDir) {
  await rm(outDir, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    banner: { js: "import { fileURLToPath as __fileURLToPath } from 'node:url';" },
  };
  // Read from a folder at run time (migrate.ts: ./migrations beside the code), so compiled beside the bundle.
  const migrations = path.join(root, 'src', 'server', 'db', 'migrations');
  const files = (await readdir(migrations)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const migrationsOut = path.join(outDir, 'migrations');
  await build({ ...common, entryPoints: files.map((f) => path.join(migrations, f)), outdir: migrationsOut, plugins: [ownDirname(migrationsOut)] });
  await build({ ...common, entryPoints: [path.join(root, 'src', 'server', 'main.ts')], outfile: path.join(outDir, 'main.js'), plugins: [ownDirname(outDir)] });
}
