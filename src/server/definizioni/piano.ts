// A change of the definitions: planned (lint, the migration's statements with the rows each touches, every refusal with
// its first rows; nothing written) and applied (the same, in one transaction under the migration's lock, recorded as a
// new version that every instance then serves).
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { loadAllFiles } from '../bootstrap.ts';
import { collectExtensions, type Domain, type Extensions } from '../extensions.ts';
import { DefinitionError } from '../../shared/definitions/compile.ts';
import { compileValidator, createAjv } from '../../shared/validation.ts';
import type { DefinitionFiles } from '../definitions.ts';
import { migrate, type PlannedStatement } from '../db/migrate.ts';
import { USERS_RESOURCE, syncRoles, type RolesFile } from '../auth/service.ts';
import type { Definitions } from '../../shared/definitions/types.ts';
import { diffFiles, latestVersion, recordVersion, type Differenza, type Origine } from './store.ts';

/** The files a live change may touch: those the engine compiles (others, e.g. the public form's, are read by code at start). */
export const LIVE_FILE = /^(?:schemas\/_shared\/[a-z0-9_]+\.json|schemas\/[a-z][a-z0-9_]*\/(?:resource|entity\.schema|list|form\.ui)\.json|schemas\/_reference\/ruoli\.json|workflows\/[a-z0-9_]+\.json)$/;

export interface ErroreDefinizione {
  file: string;
  pointer: string;
  messaggio: string;
}

export interface Rifiuto extends ErroreDefinizione {
  righe: unknown[];
}

export interface Piano {
  /** The version planned against. */
  versione: number;
  differenze: Differenza[];
  lint: { ok: boolean; errori: ErroreDefinizione[] };
  istruzioni: PlannedStatement[];
  rifiuti: Rifiuto[];
  applicabile: boolean;
}

/** A definition error's file named as the request names it (schemas/... or workflows/...). */
function projectPath(file: string): string {
  if (file.startsWith('schemas/') || file.startsWith('workflows/')) return file;
  return file.startsWith('../') ? file.slice(3) : `schemas/${file}`;
}

function asError(error: unknown): ErroreDefinizione {
  if (error instanceof DefinitionError) return { file: projectPath(error.file), pointer: error.pointer, messaggio: error.detail };
  // A domain's registration names the resource it needs (hooks, views, actions of a resource the set no longer has).
  const message = (error as Error).message;
  const resource = /resource "([^"]+)"/.exec(message)?.[1];
  return { file: resource ? `schemas/${resource}/resource.json` : '', pointer: '', messaggio: `registrazione di un dominio: ${message}` };
}

/** The checks of start-up and of `npm run lint:definitions`: compile, domains' registrations, every validator. */
export async function lintFiles(files: DefinitionFiles, domains: readonly Domain[]): Promise<{ definitions: Definitions; roles: RolesFile; extensions: Extensions }> {
  const loaded = loadAllFiles(files);
  const extensions = await collectExtensions(loaded.definitions, domains);
  // The server compiles a resource's validator on its first write: compile each one here, so a schema ajv cannot
  // compile (a bad pattern, say) fails the lint instead of that write.
  const ajv = createAjv();
  for (const def of loaded.definitions.resources.values()) {
    try {
      compileValidator(ajv, def.schema);
    } catch (error) {
      throw new DefinitionError(`${def.name}/entity.schema.json`, '', `lo schema non si compila (ajv): ${(error as Error).message}`);
    }
  }
  return { ...loaded, extensions };
}

/** The lint of a whole set: what it loads, or the first error (the plan's and the preview's). */
export async function lintOrErrors(files: DefinitionFiles, domains: readonly Domain[]) {
  try {
    return { loaded: await lintFiles(files, domains), errori: [] as ErroreDefinizione[] };
  } catch (error) {
    return { loaded: undefined, errori: [asError(error)] };
  }
}

/**
 * The resources whose tables a change may touch: those with a file changed, and those running a changed workflow; a
 * change of the shared definitions (defs.json) may touch any (undefined: all).
 */
function touchedResources(differenze: Differenza[], definitions: Definitions): ReadonlySet<string> | undefined {
  if (differenze.some((d) => d.file.startsWith('schemas/_shared/') && d.file !== 'schemas/_shared/menu.json' && d.file !== 'schemas/_shared/dashboard.json' && d.file !== 'schemas/_shared/pianificazioni.json')) return undefined;
  const names = new Set<string>();
  for (const d of differenze) {
    const [top, folder] = d.file.split('/');
    if (top === 'schemas' && folder && !folder.startsWith('_')) names.add(folder);
    if (top === 'workflows') {
      const machine = folder!.replace(/\.json$/, '');
      for (const def of definitions.resources.values()) if (def.resource.workflow?.machine === machine) names.add(def.name);
    }
  }
  return names;
}

/** The plan of going from `base` (version `versione`) to `proposed`: nothing is written. */
export async function planChange(db: Database, domains: readonly Domain[], base: { files: DefinitionFiles; versione: number }, proposed: DefinitionFiles): Promise<Piano> {
  const differenze = diffFiles(base.files, proposed);
  const { loaded, errori } = await lintOrErrors(proposed, domains);
  const piano: Piano = { versione: base.versione, differenze, lint: { ok: !errori.length, errori }, istruzioni: [], rifiuti: [], applicabile: false };
  if (!loaded) return piano;
  const report = await migrate(db, loaded.definitions, USERS_RESOURCE, loaded.extensions, {
    dryRun: true,
    only: touchedResources(differenze, loaded.definitions),
    // A plan waits for no long transaction: its locks last until its rollback.
    before: async (trx) => void await sql`SET LOCAL lock_timeout = '3s'`.execute(trx),
  });
  piano.istruzioni = report.plan;
  piano.rifiuti = report.refusals.map((r) => ({ file: projectPath(r.file), pointer: r.pointer, messaggio: r.message, righe: r.righe }));
  piano.applicabile = !piano.rifiuti.length && differenze.length > 0;
  return piano;
}

export class VersioneSuperata extends Error {
  constructor(readonly attuale: number) {
    super('Le definizioni sono cambiate dopo il piano: rivedi il piano sulla versione attuale.');
  }
}

/**
 * Applies a planned change: the same checks, then the migration, the roles and the new version in one transaction under
 * the migration's lock. A version other than `base.versione` at that moment refuses (VersioneSuperata): two analysts
 * cannot overwrite each other. Answers the plan (not applicable: nothing changed) and the new version's number.
 */
export async function applyChange(
  db: Database, domains: readonly Domain[], base: { files: DefinitionFiles; versione: number }, proposed: DefinitionFiles,
  who: { origine: Origine; utente: { id: number; name: string } | null },
): Promise<{ piano: Piano; nuova?: number }> {
  const differenze = diffFiles(base.files, proposed);
  const { loaded, errori } = await lintOrErrors(proposed, domains);
  if (!loaded || !differenze.length) {
    return { piano: { versione: base.versione, differenze, lint: { ok: !errori.length, errori }, istruzioni: [], rifiuti: [], applicabile: false } };
  }
  const { definitions, roles, extensions } = loaded;
  let nuova = 0;
  try {
    const report = await migrate(db, definitions, USERS_RESOURCE, extensions, {
      only: touchedResources(differenze, definitions),
      before: async (trx) => {
        // A change waits for no long transaction: the tables it alters would stay locked meanwhile.
        await sql`SET LOCAL lock_timeout = '3s'`.execute(trx);
        const attuale = await latestVersion(trx);
        if (attuale !== base.versione) throw new VersioneSuperata(attuale);
      },
      after: async (trx, migrated) => {
        await syncRoles(trx, roles);
        nuova = await recordVersion(trx, { origine: who.origine, files: proposed, previous: base.files, istruzioni: migrated.plan, utente: who.utente });
      },
    });
    return { piano: { versione: base.versione, differenze, lint: { ok: true, errori: [] }, istruzioni: report.plan, rifiuti: [], applicabile: true }, nuova };
  } catch (error) {
    // Refused (the data changed since the plan, or it never was planned): nothing was written; the plan says why.
    if (!(error instanceof DefinitionError)) throw error;
    const piano = await planChange(db, domains, base, proposed);
    // A failure the dry run did not meet (a lock not granted in time, say) is the refusal itself.
    if (!piano.rifiuti.length) piano.rifiuti.push({ ...asError(error), righe: [] });
    piano.applicabile = false;
    return { piano };
    throw error;
  }
}
