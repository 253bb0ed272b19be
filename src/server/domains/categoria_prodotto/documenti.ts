// The documents page (spec 001 §2): each mandate product's pre-contract notices (set informativo, DIP/IPID, privacy)
// with version and validity date, uploaded by staff through the generic file routes, readable by every user.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import type { Database } from '../../db/connection.ts';
import { presentMedia, collectionsOf, downloadPattern } from '../../media/routes.ts';
import type { MediaRecord } from '../../media/store.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { noticesInForce, oggi } from '../../media/notices.ts';

const RESOURCE = 'categoria_prodotto';

/**
 * The notice in force per collection: the latest validity date not after today (the latest upload on a tie).
 * The public flow shows these before the consents and records the versions shown (issue 12).
 */
export function currentNotices(db: Database, prodottoId: number, day = oggi()): Promise<MediaRecord[]> {
  return noticesInForce(db, { resource: RESOURCE, id: prodottoId }, undefined, day);
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('documenti-precontrattuali', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get(RESOURCE)!;
    const media = def.resource.media!;

    app.get('/api/documenti-precontrattuali', { preHandler: requirePermission(media.readPermission ?? def.resource.permissions.read) }, async (request, reply) => {
      const staff = hasPermission(def.resource.permissions.update, request.user);
      const products = await sql<{ id: number; nome: string; attivo: boolean | null; compagnia: string | null }>`
        SELECT p.id, p.nome, p.mandato_attivo AS attivo, c."ragioneSociale" AS compagnia FROM categoria_prodotto p
        LEFT JOIN compagnia c ON c.id = p.compagnia_fornitore_id ORDER BY c."ragioneSociale" NULLS LAST, p.nome`.execute(app.ctx.db);
      const files = await sql<MediaRecord>`
        SELECT id, owner_resource, owner_id, item_model, item_id, collection_name, name, file_name, mime_type, size, sha256, meta, created_by_name, created_at
        FROM media WHERE owner_resource = ${RESOURCE} ORDER BY owner_id, collection_name, meta->>'valido_dal' DESC NULLS LAST, id DESC`.execute(app.ctx.db);
      const today = oggi();
      const current = new Set<number>();
      const seen = new Set<string>();
      for (const m of files.rows) {
        const key = `${m.owner_id}:${m.collection_name}`;
        const from = m.meta?.valido_dal as string | undefined;
        if (!seen.has(key) && (!from || from <= today)) {
          seen.add(key);
          current.add(Number(m.id));
        }
      }
      const byProduct = new Map<number, ReturnType<typeof presentMedia>[]>();
      for (const m of files.rows) {
        byProduct.set(m.owner_id, [...(byProduct.get(m.owner_id) ?? []), { ...presentMedia(downloadPattern(def), m), corrente: current.has(Number(m.id)) } as ReturnType<typeof presentMedia>]);
      }
      reply.header('cache-control', 'no-store');
      return {
        // Users see the products with notices; who uploads sees every product.
        data: products.rows.filter((p) => staff || byProduct.has(p.id)).map((p) => ({ ...p, documenti: byProduct.get(p.id) ?? [] })),
        collections: [...collectionsOf(media).entries()].map(([name, c]) => ({ name, ...c })),
        can_upload: staff,
      };
    });
  });
}
