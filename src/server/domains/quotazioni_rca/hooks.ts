// List filter of the motor-liability quotations: the client by 'Cognome Nome', every word in the stored label.
import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('quotazioni_rca', {
    listFilters: {
      cognome_nome: (value) => {
        const words = value.trim().split(/\s+/).filter(Boolean).slice(0, 5);
        if (!words.length) return sql<SqlBool>`true`;
        return sql<SqlBool>`(${sql.join(words.map((w) => sql`cliente_label ILIKE ${`%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`), sql` AND `)})`;
      },
    },
  });
}
