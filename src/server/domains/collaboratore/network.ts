// The sales network: a collaborator's sub-network through punto_vendita_superiore_id, and how a collaborator is named in lists.
import { sql, type RawBuilder } from 'kysely';

/** SQL for the ids below a collaborator (children, grandchildren, ...); UNION stops on any cycle already stored. */
export function subNetworkIds(collaboratoreId: number): RawBuilder<{ id: number }> {
  return sql<{ id: number }>`
    WITH RECURSIVE sotto(id) AS (
      SELECT id FROM collaboratore WHERE punto_vendita_superiore_id = ${collaboratoreId}
      UNION
      SELECT c.id FROM collaboratore c JOIN sotto s ON c.punto_vendita_superiore_id = s.id
    )
    SELECT id FROM sotto`;
}

/** 'COGNOME NOME' for people, the business name (held in nome) for companies (sesso A). */
export const collaboratoreLabel = sql<string>`CASE WHEN sesso = 'A' THEN nome ELSE trim(concat_ws(' ', cognome, nome)) END`;
