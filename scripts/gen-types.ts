// npm run gen:types — writes src/generated/*.ts from the entity schemas; the unit suite fails when they are stale.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAll } from '../src/server/bootstrap.ts';
import { generateTypes } from './lib/typegen.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'src', 'generated');
const { definitions } = await loadAll(path.join(root, 'schemas'));
const files = await generateTypes(definitions);
await mkdir(out, { recursive: true });
for (const old of await readdir(out)) if (!files.has(old)) await rm(path.join(out, old));
for (const [name, content] of files) await writeFile(path.join(out, name), content);
console.log(`wrote ${files.size} files to src/generated`);
