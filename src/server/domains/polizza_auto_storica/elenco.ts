// Historic-car policies in the policies list (/polizza, spec 002 §2.2): each policy the insurer issues is copied once into
// `polizza` through that resource's repository (its rules, validation and hooks), linked by polizza_auto_storica_id, with
// the mandate product of the quotation's product (categoria_prodotto.mandatabile_type = the quotation's bundle_key).
// The copy is read-only there (the polizza hooks refuse edits and deletes) and follows the reversal made here.
// Why a copy and not a union view: the list, its filters, sort, export, streaming and row scope stay the generic ones.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import type { Trx } from './chiamate.ts';
import { oggiIso as oggi } from '../../../shared/dates.ts';

type Row = Record<string, unknown>;

export const ELENCO = 'polizza';

interface Prodotto {
  id: number;
  compagnia_fornitore_id: number;
  compagnia_contrattuale_id: number;
  nome: string;
}


/** The mandate product a quotation's product is sold under: an active mandate first. */
async function prodottoDi(trx: Trx | Database, bundle: string): Promise<Prodotto | undefined> {
  return (await sql<Prodotto>`
    SELECT id, compagnia_fornitore_id, compagnia_contrattuale_id, nome FROM categoria_prodotto
    WHERE mandatabile_type = ${bundle} ORDER BY (attivo AND mandato_attivo) DESC, id LIMIT 1`.execute(trx)).rows[0];
}

/**
 * Copies an issued policy into the policies list, inside the issue's transaction. A copy that cannot be made (no mandate
 * product for the quotation's product yet, a refused record) never loses the insurer's confirmed answer: it is undone to a
 * savepoint, reported, and made by the next start's catch-up (sincronizzaElenco). Answers whether the copy exists.
 */
export async function registraInElenco(elenco: ResourceRepository, trx: Trx, user: AuthUser, polizza: Row, quotazione: Row, log: (message: string) => void): Promise<boolean> {
  const id = Number(polizza.id);
  if ((await sql`SELECT 1 FROM polizza WHERE polizza_auto_storica_id = ${id}`.execute(trx)).rows.length) return true;
  const bundle = String(quotazione.bundle_key ?? 'auto_storica_itas');
  const prodotto = await prodottoDi(trx, bundle);
  if (!prodotto) {
    log(`polizza auto storica ${String(polizza.numero_polizza)}: nessun prodotto a mandato con Tipo Prodotto "${bundle}", non copiata nell'elenco polizze`);
    return false;
  }
  const premio = toCents(Number(polizza.premio ?? 0));
  const competenze = Math.min(Math.max(toCents(Number(polizza.competenze ?? 0)), 0), premio);
  const stornata = polizza.stornata === true;
  await sql`SAVEPOINT elenco_polizze`.execute(trx);
  try {
    await elenco.createOwned(trx, user, {
      polizza_auto_storica_id: id,
      quotazione_id: polizza.quotazione_id ?? null,
      collaboratore_id: polizza.collaboratore_id ?? null,
      cliente_id: polizza.cliente_id ?? null,
      compagnia_contrattuale_id: prodotto.compagnia_contrattuale_id,
      fornitore_id: prodotto.compagnia_fornitore_id,
      mandato_prodotto_id: prodotto.id,
      polizza_numero: String(polizza.numero_polizza),
      data_entrata_in_effetto: polizza.decorrenza,
      data_scadenza: polizza.scadenza,
      frazionamento_slug: 'ANNUALE',
      tacito_rinnovo: false,
      // The customer paid the whole premium before the issue (data_incasso): competenze and the insurer's premium.
      competenze: fromCents(competenze),
      totale_premio_imponibile: fromCents(premio - competenze),
      garanzie: [{ garanzia: `${prodotto.nome}${polizza.targhe ? ` - ${String(polizza.targhe)}` : ''}`, importo_lordo: fromCents(premio) }],
      stato: stornata ? 'STORNATA' : 'SALDATA',
      saldato: !stornata,
      data_ultimo_stato: stornata ? oggi() : (polizza.data_incasso ?? oggi()),
    });
    await sql`RELEASE SAVEPOINT elenco_polizze`.execute(trx);
    return true;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT elenco_polizze`.execute(trx);
    const detail = (error as { errors?: unknown }).errors ?? (error as Error).message;
    log(`polizza auto storica ${String(polizza.numero_polizza)}: non copiata nell'elenco polizze (${JSON.stringify(detail)})`);
    return false;
  }
}

/** The reversal at the insurer shows in the policies list too. */
export async function stornaInElenco(elenco: ResourceRepository, trx: Trx, user: AuthUser, polizzaAutoStoricaId: number): Promise<void> {
  const row = (await sql<Row>`SELECT * FROM polizza WHERE polizza_auto_storica_id = ${polizzaAutoStoricaId} FOR UPDATE`.execute(trx)).rows[0];
  if (row) await elenco.writeOnBehalf(trx, user, row, { stato: 'STORNATA', saldato: false, data_ultimo_stato: oggi() });
}

/** Catch-up: issued policies without their copy (issued before this existed, or before their product was configured). */
export async function sincronizzaElenco(db: Database, elenco: ResourceRepository, user: AuthUser, log: (message: string) => void): Promise<number> {
  const mancanti = await sql<Row & { bundle_key: string | null }>`
    SELECT p.*, q.bundle_key FROM polizza_auto_storica p JOIN quotazione q ON q.id = p.quotazione_id
    WHERE NOT EXISTS (SELECT 1 FROM polizza e WHERE e.polizza_auto_storica_id = p.id)
      AND EXISTS (SELECT 1 FROM categoria_prodotto c WHERE c.mandatabile_type = coalesce(q.bundle_key, 'auto_storica_itas'))
    ORDER BY p.id`.execute(db);
  let copiate = 0;
  for (const polizza of mancanti.rows) {
    const ok = await db.transaction().execute(async (trx) => {
      // Another instance starting at the same time may copy it first: the unique link keeps one copy, this one waits for it.
      await sql`SELECT pg_advisory_xact_lock(hashtext('elenco_polizze'), ${Number(polizza.id)})`.execute(trx);
      return registraInElenco(elenco, trx, user, polizza, { bundle_key: polizza.bundle_key }, log);
    });
    if (ok) copiate++;
  }
  return copiate;
}
