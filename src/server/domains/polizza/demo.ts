// Demo policies with their titles, some paid; idempotent, written through the same validation, hooks and payment path as the API.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import { registraPagamento } from './pagamenti.ts';
import { aggiungiMesi } from '../../../shared/premi.ts';
import { oggi } from './titoli.ts';

const TIPI = ['BONIFICO', 'CONTANTI', 'POS', 'ASSEGNO', 'CARTA_DI_CREDITO'];
const FRAZIONAMENTI = ['ANNUALE', 'SEMESTRALE', 'TRIMESTRALE', 'MENSILE', 'TRIMESTRALE', 'QUADRIMESTRALE'];

/** Twelve policies on the demo customers, starting over the last months; the titles already due are paid. */
export async function seedPolizze(db: Database, repoFor: (resource: string) => ResourceRepository, user: AuthUser): Promise<number> {
  const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM polizza WHERE polizza_numero LIKE 'DEMO-%'`.execute(db);
  if (existing.rows[0]!.n > 0) return 0;
  const prodotti = (await sql<{ id: number; compagnia_fornitore_id: number; compagnia_contrattuale_id: number; nome: string }>`
    SELECT id, compagnia_fornitore_id, compagnia_contrattuale_id, nome FROM categoria_prodotto WHERE attivo AND mandato_attivo ORDER BY id`.execute(db)).rows;
  const clienti = (await sql<{ id: number; collaboratore_id: number | null }>`
    SELECT id, collaboratore_id FROM cliente WHERE collaboratore_id IS NOT NULL AND attivo ORDER BY id LIMIT 12`.execute(db)).rows;
  if (!prodotti.length || !clienti.length) return 0;
  const polizze = repoFor('polizza');
  const titoli = repoFor('titolo');
  const today = oggi();
  let created = 0;
  for (const [i, cliente] of clienti.entries()) {
    const p = prodotti[i % prodotti.length]!;
    const inizio = aggiungiMesi(today.slice(0, 8) + '01', -((i * 2) % 11));
    const imponibile = 300 + ((i * 137) % 900) + 0.45;
    const { model } = await polizze.create(db, user, {
      collaboratore_id: cliente.collaboratore_id, cliente_id: cliente.id, compagnia_contrattuale_id: p.compagnia_contrattuale_id,
      fornitore_id: p.compagnia_fornitore_id, mandato_prodotto_id: p.id, polizza_numero: `DEMO-${String(1001 + i)}`,
      data_entrata_in_effetto: inizio, data_scadenza: aggiungiMesi(inizio, 12), data_scadenza_rata: inizio,
      frazionamento_slug: FRAZIONAMENTI[i % FRAZIONAMENTI.length], tacito_rinnovo: i % 3 !== 0, tipo_pagamento: TIPI[i % TIPI.length],
      totale_premio_imponibile: imponibile, totale_premio_imposte: Math.round(imponibile * 22.25) / 100, diritti: 10, spese: 5, competenze: 15 + (i % 4) * 5,
      garanzie: [{ garanzia: p.nome, importo_netto: imponibile, importo_lordo: Math.round(imponibile * 122.25) / 100 }],
    });
    created++;
    const due = (await sql<{ id: number }>`SELECT id FROM titolo WHERE polizza_id = ${model.id as number} AND data_inizio <= ${today} ORDER BY numero_rata`.execute(db)).rows;
    // Every other policy has its due titles paid; the most recent due one stays open on the others.
    for (const [k, t] of due.entries()) {
      if (i % 2 === 1 && k === due.length - 1) break;
      const premio = (await sql<{ premio: number; data_inizio: string }>`SELECT premio, data_inizio FROM titolo WHERE id = ${t.id}`.execute(db)).rows[0]!;
      await db.transaction().execute((trx) => registraPagamento(trx, { titoli, polizze }, user, t.id, { data_pagamento: premio.data_inizio, importo: premio.premio, tipo_pagamento: TIPI[(i + k) % TIPI.length] }));
    }
  }
  return created;
}
