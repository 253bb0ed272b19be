// The definitions as a set of files (schemas/ and workflows/, path -> JSON) and their compilation. The set comes from
// disk (a deploy) or from PostgreSQL (the live set, src/server/definizioni): both compile through compileFiles.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { compileDefinitions, DefinitionError, type RawDefinitions } from '../shared/definitions/compile.ts';
import type { Definitions } from '../shared/definitions/types.ts';

export const RESOURCE_FILES = ['resource.json', 'entity.schema.json', 'list.json', 'form.ui.json'] as const;

/** Every definitions file by its path from the project root ("schemas/cliente/list.json", "workflows/quotazione.json"). */
export type DefinitionFiles = Record<string, unknown>;

async function readJson(file: string, named: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DefinitionError(named, '', `JSON non valido: ${(error as Error).message}`);
  }
}

async function jsonFiles(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
}

/** Reads schemas/ (each folder's JSON files) and the workflows/ beside it. Names in errors are relative to schemas/, as at start-up. */
export async function readDefinitionFiles(schemasDir: string): Promise<DefinitionFiles> {
  const files: DefinitionFiles = {};
  const entries = (await readdir(schemasDir, { withFileTypes: true })).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    for (const file of await jsonFiles(path.join(schemasDir, entry.name))) {
      files[`schemas/${entry.name}/${file}`] = await readJson(path.join(schemasDir, entry.name, file), `${entry.name}/${file}`);
    }
  }
  const workflowsDir = path.join(schemasDir, '..', 'workflows');
  for (const file of await jsonFiles(workflowsDir)) files[`workflows/${file}`] = await readJson(path.join(workflowsDir, file), `../workflows/${file}`);
  return files;
}

/** A file's name in definition errors: relative to schemas/ (workflows as ../workflows/x.json). */
export const errorName = (file: string) => (file.startsWith('schemas/') ? file.slice('schemas/'.length) : `../${file}`);

/** Compiles the resources, shared files, menu and dashboard of a set (workflows and roles: bootstrap's loadAllFiles). */
export function compileFiles(files: DefinitionFiles): Definitions {
  const raw: RawDefinitions = { shared: {}, resources: [] };
  const under = (prefix: string) => Object.keys(files).filter((f) => f.startsWith(prefix)).sort();
  for (const file of under('schemas/_shared/')) raw.shared[errorName(file)] = files[file];
  const menuFile = '_shared/menu.json';
  if (raw.shared[menuFile]) raw.menu = { file: menuFile, value: raw.shared[menuFile] };
  const dashboardFile = '_shared/dashboard.json';
  if (raw.shared[dashboardFile]) raw.dashboard = { file: dashboardFile, value: raw.shared[dashboardFile] };
  const folders = [...new Set(under('schemas/').map((f) => f.split('/')[1]!).filter((d) => !d.startsWith('_')))].sort((a, b) => a.localeCompare(b));
  for (const dir of folders) {
    const [resource, entity, list, form] = RESOURCE_FILES.map((f) => {
      const value = files[`schemas/${dir}/${f}`];
      if (value === undefined) throw new DefinitionError(`${dir}/${f}`, '', 'file mancante');
      return value;
    });
    raw.resources.push({ dir, resource, entity, list, form });
  }
  return { ...compileDefinitions(raw), schedules: raw.shared['_shared/pianificazioni.json'] ?? [] };
}

export async function loadDefinitions(schemasDir: string): Promise<Definitions> {
  return compileFiles(await readDefinitionFiles(schemasDir));
}
