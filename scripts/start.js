// npm start — rebuilds what is older than its sources (the front end into dist/, the server into dist-server/), then runs
// the server bundle with plain node. Plain JavaScript on purpose: compiling TypeScript on every start (tsx) cost seconds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** `built` is missing or older than one of `sources` (folders, or files such as this script). */
function stale(built, sources) {
  if (!existsSync(built)) return true;
  const newest = Math.max(...sources.filter(existsSync).map((s) => (statSync(s).isDirectory() ? newestChange(s) : statSync(s).mtimeMs)));
  return newest > statSync(built).mtimeMs;
}

const src = (name) => path.join(root, 'src', name);

if (stale(path.join(root, 'dist', 'index.html'), [src('client'), src('shared')])) {
  console.log('building the front end (vite build)...');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
}

const serverDir = path.join(root, 'dist-server');
const serverBundle = path.join(serverDir, 'main.js');
const buildScript = path.join(root, 'scripts', 'build-server.js');
if (stale(serverBundle, [src('server'), src('shared'), buildScript, path.join(root, 'package-lock.json')])) {
  console.log('building the server (esbuild)...');
  const { buildServer } = await import(pathToFileURL(buildScript).href);
  await buildServer(root, serverDir);
}
await import(pathToFileURL(serverBundle).href);
