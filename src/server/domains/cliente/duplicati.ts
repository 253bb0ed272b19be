// One customer per codice fiscale: a code already on file is refused on the generic form (the message says only that
// the code is taken, whoever's customer it is) and reused by the flows that create customers, within the user's scope.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import { HttpError, invalid } from '../../errors.ts';

export const RESOURCE = 'cliente';
export const CF_FIELD = 'cf';
export const CF_TAKEN = 'Esiste già un cliente con questo codice fiscale.';

const normalised = (cf: unknown): string | undefined => (typeof cf === 'string' && cf.trim() ? cf.trim().toUpperCase() : undefined);

/** The customers holding this codice fiscale (besides `except`), oldest first, whoever's they are. */
export async function holders(db: Database, cf: unknown, except?: number): Promise<number[]> {
  const code = normalised(cf);
  if (!code) return [];
  const rows = await sql<{ id: number }>`SELECT id FROM cliente WHERE upper(btrim(cf)) = ${code}
    ${except !== undefined ? sql`AND id <> ${except}` : sql``} ORDER BY id`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Refuses a codice fiscale another customer already holds, at the field. */
export async function assertCfFree(db: Database, cf: unknown, except?: number): Promise<void> {
  if ((await holders(db, cf, except)).length) throw invalid({ [CF_FIELD]: [CF_TAKEN] });
}

/**
 * The customer this user may see who holds the codice fiscale, to reuse instead of creating a second one;
 * `outOfScope` when the code is held only by customers the user may not see (nothing else about them is told).
 */
export async function inScope(db: Database, clienti: ResourceRepository, user: AuthUser, cf: unknown): Promise<{ id?: number; outOfScope: boolean }> {
  const ids = await holders(db, cf);
  for (const id of ids) {
    try {
      await clienti.get(db, user, id);
      return { id, outOfScope: false };
    } catch (error) {
      if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
    }
  }
  return { outOfScope: ids.length > 0 };
}
