// Demo documents, so the document screens have something to show: identity papers of the quotations that reached the
// documents phase, and the pre-contract notices (with version and validity date) of the first mandate products.
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { MediaStore } from '../media/store.ts';

const MB = 1024 * 1024;

async function pdf(title: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 60, y: 760, size: 18, font });
  page.drawText('Documento dimostrativo (npm run seed:demo)', { x: 60, y: 730, size: 11, font });
  return doc.save();
}

/** Adds them where the owner has none yet (idempotent; an issued quotation already has its contract); answers how many were stored. */
export async function seedDocumenti(db: Database, media: MediaStore): Promise<number> {
  let stored = 0;
  const quotazioni = await sql<{ id: number }>`
    SELECT q.id FROM quotazione q WHERE q.stato_quotazione_id IN (5, 6, 7, 8, 9, 10, 11)
      AND NOT EXISTS (SELECT 1 FROM media m WHERE m.owner_resource = 'quotazione' AND m.owner_id = q.id
        AND m.collection_name IN ('carta_identita', 'codice_fiscale')) ORDER BY q.id`.execute(db);
  const prodotti = await sql<{ id: number; nome: string }>`
    SELECT c.id, c.nome FROM categoria_prodotto c
      WHERE c.mandatabile_type IS NULL -- the public link's products get their notices from staff (the consents name them)
        AND NOT EXISTS (SELECT 1 FROM media m WHERE m.owner_resource = 'categoria_prodotto' AND m.owner_id = c.id) ORDER BY c.id LIMIT 3`.execute(db);
  await db.transaction().execute(async (trx) => {
    for (const { id } of quotazioni.rows) {
      for (const [collection, title] of [['carta_identita', "Carta d'identità"], ['codice_fiscale', 'Codice fiscale']] as const) {
        await media.storeDocument(trx, { owner: { resource: 'quotazione', id }, collection, fileName: `${collection}.pdf`, name: `${title} - quotazione ${id}.pdf`, source: await pdf(`${title} - quotazione ${id}`), types: ['pdf'], maxBytes: 25 * MB });
        stored++;
      }
    }
    for (const { id, nome } of prodotti.rows) {
      for (const [collection, title] of [['set_informativo', 'Set informativo'], ['dip_ipid', 'DIP-IPID'], ['privacy', 'Informativa privacy']] as const) {
        await media.storeDocument(trx, {
          owner: { resource: 'categoria_prodotto', id }, collection, fileName: `${collection}.pdf`, name: `${title} ${nome}.pdf`,
          source: await pdf(`${title} - ${nome}`), types: ['pdf'], maxBytes: 25 * MB, meta: { versione: '1.0', valido_dal: '2026-01-01' },
        });
        stored++;
      }
    }
  });
  return stored;
}
