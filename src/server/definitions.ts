// Reads schemas/ from disk and compiles it; a malformed file stops start-up with file and JSON pointer.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { compileDefinitions, DefinitionError, type RawDefinitions } from '../shared/definitions/compile.ts';
import type { Definitions } from '../shared/definitions/types.ts';

export const RESOURCE_FILES = ['resource.json', 'entity.schema.json', 'list.json', 'form.ui.json'] as const;

async function readJson(root: string, relative: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path.join(root, relative), 'utf8');
  } catch {
    throw new DefinitionError(relative, '', 'file missing');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DefinitionError(relative, '', `invalid JSON: ${(error as Error).message}`);
  }
}

export async function loadDefinitions(root: string): Promise<Definitions> {
  const entries = await readdir(root, { withFileTypes: true });
  const raw: RawDefinitions = { shared: {}, resources: [] };
  const sharedDir = entries.find((e) => e.isDirectory() && e.name === '_shared');
  if (sharedDir) {
    for (const file of (await readdir(path.join(root, '_shared'))).filter((f) => f.endsWith('.json')).sort()) {
      raw.shared[`_shared/${file}`] = await readJson(root, `_shared/${file}`);
    }
  }
  const menuFile = '_shared/menu.json';
  if (raw.shared[menuFile]) raw.menu = { file: menuFile, value: raw.shared[menuFile] };
  const dashboardFile = '_shared/dashboard.json';
  if (raw.shared[dashboardFile]) raw.dashboard = { file: dashboardFile, value: raw.shared[dashboardFile] };
  for (const entry of entries.filter((e) => e.isDirectory() && !e.name.startsWith('_')).sort((a, b) => a.name.localeCompare(b.name))) {
    const [resource, entity, list, form] = await Promise.all(RESOURCE_FILES.map((f) => readJson(root, `${entry.name}/${f}`)));
    raw.resources.push({ dir: entry.name, resource, entity, list, form });
  }
  return { ...compileDefinitions(raw), schedules: raw.shared['_shared/pianificazioni.json'] ?? [] };
}
