// Start-up steps shared by the server, the seed script and the tests: definitions, migration, roles, first admin.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from './db/connection.ts';
import { migrate, type MigrateOptions } from './db/migrate.ts';
import { hashFiles, readVersion, latestVersion, recordVersion, resolveStartSet } from './definizioni/store.ts';
import { compileFiles, errorName, readDefinitionFiles, type DefinitionFiles } from './definitions.ts';
import { DefinitionError } from '../shared/definitions/compile.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import { SUPER_ADMIN } from '../shared/permissions.ts';
import { USERS_RESOURCE, syncRoles, type RolesFile } from './auth/service.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './auth/passwords.ts';
import { exemptFromMfa } from './auth/mfa.ts';
import { registraAccesso } from './storico/contesto.ts';
import { lintWorkflow } from '../shared/workflow/lint.ts';
import type { WorkflowDefinition } from '../shared/workflow/machine.ts';
import { collectExtensions, type Domain } from './extensions.ts';
import { nestedReadPermissions } from '../shared/definitions/read-masks.ts';

export const ROLES_FILE = '_reference/ruoli.json';

/** Every permission a definition names must exist in the roles file: a typo would silently lock everyone out. */
function checkPermissionNames(definitions: Definitions, roles: RolesFile): void {
  const known = new Set([...roles.permissions.map((p) => p.name), ...roles.roles.map((r) => r.name)]);
  for (const def of definitions.resources.values()) {
    const expressions: Array<[string, string | undefined]> = [
      ...Object.entries(def.resource.permissions).map(([k, v]) => [`/permissions/${k}`, v] as [string, string]),
      ['/rowScope/unless', def.resource.rowScope?.unless],
      ['/media/readPermission', def.resource.media?.readPermission],
      ...def.fields.filter((f) => f.readPermission).map((f) => [`(entity.schema.json)/properties/${f.name}/x-read-permission`, f.readPermission] as [string, string]),
      ...def.fields.flatMap((f) => nestedReadPermissions(def.schema.properties?.[f.name]).map(([at, p]) => [`(entity.schema.json)/properties/${f.name}${at}`, p] as [string, string])),
      ...def.fields.filter((f) => f.filterPermission).map((f) => [`(entity.schema.json)/properties/${f.name}/x-filter-permission`, f.filterPermission] as [string, string]),
    ];
    for (const [pointer, expression] of expressions) {
      for (const name of (expression ?? '').split(/[|&]/).map((s) => s.trim()).filter(Boolean)) {
        if (!known.has(name)) throw new DefinitionError(`${def.name}/resource.json`, pointer, `permesso sconosciuto "${name}" (non è in ${ROLES_FILE})`);
      }
    }
  }
  definitions.staticMenu.forEach((m, i) => {
    for (const name of m.permission.split(/[|&]/).map((s) => s.trim())) {
      if (!known.has(name)) throw new DefinitionError('_shared/menu.json', `/${i}/permission`, `permesso sconosciuto "${name}"`);
    }
  });
}

/** Machines under workflows/ (beside schemas/), linted; each resource's workflow must name one of them. */
function loadWorkflows(definitions: Definitions, files: DefinitionFiles): void {
  for (const file of Object.keys(files).filter((f) => f.startsWith('workflows/')).sort()) {
    const json = files[file] as WorkflowDefinition;
    // The actions are the domains' (checked again when they register: Extensions.verify).
    const problems = lintWorkflow(json);
    if (problems.length) throw new DefinitionError(errorName(file), '', problems.join(' '));
    definitions.workflows.set(file.slice('workflows/'.length).replace(/\.json$/, ''), json);
  }
  for (const def of definitions.resources.values()) {
    const name = def.resource.workflow?.machine;
    if (!name) continue;
    const machine = definitions.workflows.get(name) as WorkflowDefinition | undefined;
    if (!machine) throw new DefinitionError(`${def.name}/resource.json`, '/workflow/machine', `il flusso non esiste: manca workflows/${name}.json`);
    const field = def.fields.find((f) => f.name === machine.meta.statusField);
    if (!field || field.kind !== 'integer' || !field.readOnly) {
      throw new DefinitionError(`${def.name}/entity.schema.json`, `/properties/${machine.meta.statusField}`, 'il campo dello stato del flusso deve essere una proprietà intera in sola lettura (readOnly)');
    }
  }
}

/** Compiles a whole set (resources, workflows, roles) with the checks of start-up; a mistake names file and pointer. */
export function loadAllFiles(files: DefinitionFiles): { definitions: Definitions; roles: RolesFile } {
  const definitions = compileFiles(files);
  loadWorkflows(definitions, files);
  const roles = files[`schemas/${ROLES_FILE}`] as RolesFile | undefined;
  if (!roles || typeof roles !== 'object' || !Array.isArray(roles.permissions) || !Array.isArray(roles.roles)) {
    throw new DefinitionError(ROLES_FILE, '', 'i ruoli non si leggono: "permissions" e "roles" devono essere liste');
  }
  checkPermissionNames(definitions, roles);
  return { definitions, roles };
}

export async function loadAll(schemasDir: string): Promise<{ definitions: Definitions; roles: RolesFile }> {
  return loadAllFiles(await readDefinitionFiles(schemasDir));
}

/** `step` (optional) hears how long each part took, for the start-up line of the server. */
export async function prepareDatabase(
  db: Database, definitions: Definitions, roles: RolesFile, domains: readonly Domain[], step: (name: string, ms: number, note?: string) => void = () => {},
  options: MigrateOptions = {},
) {
  let t = performance.now();
  const lap = (name: string, note?: string) => {
    const now = performance.now();
    step(name, now - t, note);
    t = now;
  };
  const extensions = await collectExtensions(definitions, domains);
  lap('domains');
  const report = await migrate(db, definitions, USERS_RESOURCE, extensions, options);
  lap('migration check', report.statements.length ? `${report.statements.length} statements` : 'unchanged');
  await syncRoles(db, roles);
  lap('roles');
  for (const [name, run] of extensions.prepareSteps()) lap(name, await run(db));
  return report;
}

/** Why the first super_admin of a test or demo install may log in without two-step verification (ADMIN_MFA_ESENTE). */
export const ADMIN_EXEMPTION = "ADMIN_MFA_ESENTE all'avvio: installazione di prova o dimostrativa, amministratore creato senza verifica in due passaggi";

/**
 * The first start creates a super_admin; without ADMIN_PASSWORD a generated one is printed once. `mfaExempt`
 * (ADMIN_MFA_ESENTE, for test and demo installs) records that admin's exemption from the required verification.
 */
export async function ensureAdmin(db: Database, email: string, password: string | undefined, print: (line: string) => void, mfaExempt = false): Promise<void> {
  const existing = await sql`SELECT 1 FROM ${sql.table(USERS_RESOURCE)} WHERE ruoli ? ${SUPER_ADMIN} LIMIT 1`.execute(db);
  if (existing.rows.length) return;
  if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  const chosen = password ?? randomBytes(12).toString('base64url');
  const created = await db.insertInto(USERS_RESOURCE).values({
    email, name: 'Amministratore', password: await hashPassword(chosen), ruoli: JSON.stringify([SUPER_ADMIN]), attivo: true,
  }).returning(['id', 'name']).executeTakeFirstOrThrow() as { id: number; name: string };
  if (mfaExempt) {
    await exemptFromMfa(db, created.id, ADMIN_EXEMPTION, 'avvio');
    await registraAccesso(db, USERS_RESOURCE, 'mfa_esenzione_concessa', created);
    print(`super_admin ${email} exempt from two-step verification (ADMIN_MFA_ESENTE): recorded, a super_admin can revoke it`);
  }
  if (password === undefined) print(`Created super_admin ${email} with password: ${chosen} (shown only now)`);
  else print(`Created super_admin ${email} (password from ADMIN_PASSWORD)`);
}

export interface PreparedDefinitions {
  definitions: Definitions;
  roles: RolesFile;
  /** The set served and its version (src/server/definizioni). */
  files: DefinitionFiles;
  versione: number;
  report: Awaited<ReturnType<typeof prepareDatabase>>;
}

/** The start of a server: the set to serve (the disk's when a deploy brought a new one, else the newest version), migrated to. */
export async function prepareDefinitions(
  db: Database, disk: DefinitionFiles, domains: readonly Domain[], step?: (name: string, ms: number, note?: string) => void,
): Promise<PreparedDefinitions> {
  const start = await resolveStartSet(db, disk);
  const { definitions, roles } = loadAllFiles(start.files);
  let versione = start.versione;
  const discoHash = hashFiles(disk);
  const report = await prepareDatabase(db, definitions, roles, domains, step, start.deploy ? {
    // Under the migration's lock: another instance starting with the same disk may have recorded it meanwhile.
    after: async (trx, migrated) => {
      const latest = await readVersion(trx, await latestVersion(trx));
      const known = await sql<{ n: number }>`SELECT n FROM definizioni_versione WHERE origine = 'deploy' AND disco_hash = ${discoHash} ORDER BY n DESC LIMIT 1`.execute(trx);
      if (known.rows.length && latest) versione = latest.n;
      else versione = await recordVersion(trx, { origine: 'deploy', files: disk, previous: latest?.files, istruzioni: migrated.plan, utente: null, discoHash });
    },
  } : {});
  return { definitions, roles, files: start.files, versione, report };
}
