// Read-only resources backed by SQL views ("view": true in resource.json): each domain registers its view's SELECT
// (app.extensions.view); here they are dropped and created around the migration.
import { sql } from 'kysely';
import { DefinitionError } from '../../shared/definitions/compile.ts';
import type { Definitions } from '../../shared/definitions/types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = import('kysely').Transaction<any>;

/** Dropped before the tables migrate (a view pins the types of the columns it reads), created again afterwards. */
export async function dropViews(trx: Trx, definitions: Definitions): Promise<void> {
  for (const def of definitions.resources.values()) {
    if (def.resource.view) await sql.raw(`DROP VIEW IF EXISTS "${def.name}"`).execute(trx);
  }
}

/** Creates every view (its columns must be id, version and every property of its entity schema) and checks it answers the columns its definition promises; a mismatch names the files. */
export async function createViews(trx: Trx, definitions: Definitions, viewOf: (resource: string) => string | undefined): Promise<string[]> {
  const statements: string[] = [];
  for (const def of definitions.resources.values()) {
    if (!def.resource.view) continue;
    const select = viewOf(def.name);
    if (!select) throw new DefinitionError(`${def.name}/resource.json`, '/view', `nessuna vista registrata per "${def.name}" (app.extensions.view nel suo dominio)`);
    const statement = `CREATE VIEW "${def.name}" AS ${select}`;
    try {
      await sql.raw(statement).execute(trx);
    } catch (error) {
      throw new DefinitionError(`${def.name}/resource.json`, '/view', `la creazione della vista non è riuscita: ${(error as Error).message}`);
    }
    statements.push(statement);
    const columns = new Set((await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${def.name}`.execute(trx)).rows.map((r) => r.column_name));
    for (const name of ['id', 'version', ...def.fields.map((f) => f.name)]) {
      if (!columns.has(name)) throw new DefinitionError(`${def.name}/entity.schema.json`, `/properties/${name}`, `la vista "${def.name}" non ha la colonna "${name}"`);
    }
  }
  return statements;
}
