// Versioned documents of an owner (a product's pre-contract notices): the version in force per collection on a day.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { MediaRecord } from './store.ts';

/** Today in Italy: a notice valid from a date is in force from that date's start, Italian time. */
import { oggiIso as oggi } from '../../shared/dates.ts';

export { oggi };

/**
 * Per collection, the file with the latest validity date (meta.valido_dal) not after `day`; the latest upload on a tie.
 * Files without a validity date are not versioned notices and never count.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of generated tables are untyped
export async function noticesInForce(db: Database | Transaction<any>, owner: { resource: string; id: number }, collections?: string[], day = oggi()): Promise<MediaRecord[]> {
  if (collections && collections.length === 0) return [];
  const rows = await sql<MediaRecord>`
    SELECT DISTINCT ON (collection_name) id, owner_resource, owner_id, item_model, item_id, collection_name, name, file_name, mime_type,
      size, sha256, meta, created_by_name, created_at
    FROM media
    WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id} AND meta ? 'valido_dal' AND meta->>'valido_dal' <= ${day}
      ${collections ? sql`AND collection_name IN (${sql.join(collections)})` : sql``}
    ORDER BY collection_name, meta->>'valido_dal' DESC, id DESC`.execute(db);
  return rows.rows;
}
