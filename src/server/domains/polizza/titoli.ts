// Titles (premium instalments) of a policy: generation from the policy's dates, frazionamento and amounts, and the policy's paid status.
import { sql, type Kysely } from 'kysely';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';

/** The repositories a payment writes through: the title and its policy's status. */
export interface Archivi {
  titoli: ResourceRepository;
  polizze: ResourceRepository;
}
import {
  centesimi, euro, periodi, provvigioniRata, rate, PARAMETRI_VUOTI,
  type ParametriProvvigioni, type TipoProvvigione,
} from '../../../shared/premi.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Trx = Kysely<any>;

export const CAMPI_TITOLI = ['data_entrata_in_effetto', 'data_scadenza', 'frazionamento_slug', 'competenze', 'totale_premio_imponibile', 'totale_premio_imposte', 'diritti', 'spese'] as const;

import { oggiIso as oggi } from '../../../shared/dates.ts';

export { oggi };

export async function frazionamento(trx: Trx, codice: string): Promise<{ codice: string; mesi: number | null } | undefined> {
  const rows = await sql<{ codice: string; mesi: number | null }>`SELECT codice, mesi FROM ref_frazionamento WHERE codice = ${codice}`.execute(trx);
  return rows.rows[0];
}

/** The percentages of the commission panel for a mandate product and a collaborator (and the product's supplier's withholding). */
export async function parametriProvvigioni(trx: Trx, mandatoProdottoId: number | null, collaboratoreId: number | null): Promise<ParametriProvvigioni> {
  const out: ParametriProvvigioni = { ...PARAMETRI_VUOTI };
  let settore: string | undefined;
  if (mandatoProdottoId) {
    const rows = await sql<{ perc: number | null; ritenuta: number | null; settore: string | null }>`
      SELECT p.percentuale_provvigione_attiva AS perc, f."percentRitenuta" AS ritenuta,
             coalesce(s.nome, sr.nome) AS settore
      FROM categoria_prodotto p
      JOIN compagnia f ON f.id = p.compagnia_fornitore_id
      LEFT JOIN ref_settore s ON s.id = p.settore_id
      LEFT JOIN ref_ramo r ON r.id = p.ramo_id
      LEFT JOIN ref_settore sr ON sr.id = r.settore_id
      WHERE p.id = ${mandatoProdottoId}`.execute(trx);
    const row = rows.rows[0];
    if (row) {
      out.perc_provvigioni_attive = Number(row.perc ?? 0);
      out.perc_ritenuta = row.ritenuta === null ? null : Number(row.ritenuta);
      settore = row.settore ?? undefined;
    }
  }
  if (collaboratoreId) {
    const rows = await sql<{ settori: Array<{ nome: string; perc_provvigione: number; tipo_provvigione: TipoProvvigione }> | null; competenze: number | null }>`
      SELECT provvigioni_settori AS settori, "percProvvigioneCompetenze" AS competenze FROM collaboratore WHERE id = ${collaboratoreId}`.execute(trx);
    const row = rows.rows[0];
    if (row) {
      const quota = settore ? row.settori?.find((s) => s.nome === settore) : undefined;
      if (quota) {
        out.perc_provvigione_collaboratore = Number(quota.perc_provvigione ?? 0);
        out.tipo_provvigione_collaboratore = quota.tipo_provvigione ?? 'PERC_IMPONIBILE';
      }
      out.perc_competenze_collaboratore = Number(row.competenze ?? 0);
    }
  }
  return out;
}

/** The product's sector (its own, else its branch's), whose commission the collaborator gets: kept on the title for the provvigionale. */
async function settoreProdotto(trx: Trx, mandatoProdottoId: number | null): Promise<string | null> {
  if (!mandatoProdottoId) return null;
  const rows = await sql<{ settore: string | null }>`
    SELECT coalesce(s.nome, sr.nome) AS settore FROM categoria_prodotto p
    LEFT JOIN ref_settore s ON s.id = p.settore_id
    LEFT JOIN ref_ramo r ON r.id = p.ramo_id
    LEFT JOIN ref_settore sr ON sr.id = r.settore_id
    WHERE p.id = ${mandatoProdottoId}`.execute(trx);
  return rows.rows[0]?.settore ?? null;
}

/** Replaces every title of the policy with those of its current dates, frazionamento and amounts (none may be paid). */
export async function generaTitoli(trx: Trx, polizza: Record<string, unknown>): Promise<number> {
  const id = Number(polizza.id);
  await sql`DELETE FROM titolo WHERE polizza_id = ${id}`.execute(trx);
  const fraz = await frazionamento(trx, String(polizza.frazionamento_slug));
  if (!fraz) throw new Error(`frazionamento sconosciuto: ${String(polizza.frazionamento_slug)}`);
  const periods = periodi(String(polizza.data_entrata_in_effetto), String(polizza.data_scadenza), fraz);
  const amounts = rate(polizza, periods.length);
  const params = await parametriProvvigioni(trx, polizza.mandato_prodotto_id as number | null, polizza.collaboratore_id as number | null);
  const settore = await settoreProdotto(trx, polizza.mandato_prodotto_id as number | null);
  const today = oggi();
  const rows = periods.map((p, i) => {
    const r = amounts[i]!;
    const panel = provvigioniRata(r, params);
    return {
      polizza_id: id,
      cliente_id: polizza.cliente_id ?? null,
      collaboratore_id: polizza.collaboratore_id ?? null,
      numero_rata: p.numero_rata,
      data_inizio: p.data_inizio,
      data_fine: p.data_fine,
      premio: euro(r.premio),
      stato: 'GIACENZA',
      data_ultimo_stato: today,
      saldato: false,
      totale_netto: euro(r.imponibile),
      diritti: euro(r.diritti),
      accessori: 0,
      spese: euro(r.spese),
      imposte: euro(r.imposte),
      ssn: 0,
      premio_polizza: euro(panel.premio_polizza),
      spese_emissione: 0,
      competenze: euro(r.competenze),
      valore_ritenuta: euro(panel.valore_ritenuta),
      totale_cliente: euro(panel.totale_cliente),
      perc_provvigioni_attive: params.perc_provvigioni_attive,
      provvigioni_attive: euro(panel.provvigioni_attive),
      perc_competenze_collaboratore: params.perc_provvigione_collaboratore,
      collaboratore_totale: euro(panel.collaboratore_totale),
      // The parts of collaboratore_totale as agreed when the title was made (the provvigionale shows them).
      settore_provvigione: settore,
      tipo_provvigione_collaboratore: params.tipo_provvigione_collaboratore,
      provvigione_collaboratore: euro(panel.provvigione_collaboratore),
      perc_provvigione_competenze: params.perc_competenze_collaboratore,
      competenze_collaboratore: euro(panel.competenze_collaboratore),
    };
  });
  if (rows.length) await trx.insertInto('titolo').values(rows).execute();
  return rows.length;
}

export async function titoliPagati(trx: Trx, polizzaId: number): Promise<number> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM titolo WHERE polizza_id = ${polizzaId} AND saldato`.execute(trx);
  return rows.rows[0]!.n;
}

/** The policy's stato and saldato follow its titles: GIACENZA (none paid), IN_PAGAMENTO, SALDATA (all paid). */
export async function aggiornaStatoPolizza(trx: Trx, polizze: ResourceRepository, user: AuthUser, polizzaId: number): Promise<void> {
  const counts = (await sql<{ tot: number; pagati: number }>`
    SELECT count(*)::int AS tot, count(*) FILTER (WHERE saldato)::int AS pagati FROM titolo WHERE polizza_id = ${polizzaId}`.execute(trx)).rows[0]!;
  const stato = counts.pagati === 0 ? 'GIACENZA' : counts.pagati < counts.tot ? 'IN_PAGAMENTO' : 'SALDATA';
  const saldato = counts.tot > 0 && counts.pagati === counts.tot;
  const polizza = await polizze.lockRow(trx, polizzaId);
  await polizze.writeOnBehalf(trx, user, polizza, {
    stato, saldato, ...(polizza.stato !== stato ? { data_ultimo_stato: oggi() } : {}),
  });
}

export function importoCents(value: unknown): number {
  return centesimi(value as number | string | null | undefined);
}
