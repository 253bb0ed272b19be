// Policies: coherent supplier/company/product (the engine checks the references' row scope and computes the gross premium),
// list fields kept from the form fields, and the titles regenerated in the same transaction while none is paid.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { MigrationStatement } from '../../extensions.ts';
import { HttpError, invalid } from '../../errors.ts';
import { MAX_RATE, periodi } from '../../../shared/premi.ts';
import type { FieldErrors } from '../../../shared/validation.ts';
import { CAMPI_TITOLI, frazionamento, generaTitoli, oggi, titoliPagati, type Trx } from './titoli.ts';

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || (typeof a === 'number' || typeof b === 'number' ? Number(a ?? 0) === Number(b ?? 0) : false);

interface Prodotto {
  id: number;
  nome: string;
  compagnia_fornitore_id: number;
  compagnia_contrattuale_id: number;
  ramo_id: number | null;
  mandato_attivo: boolean | null;
  fornitore: string;
  compagnia: string;
  ramo: string | null;
}

async function prodotto(trx: Trx, id: number): Promise<Prodotto | undefined> {
  const rows = await sql<Prodotto>`
    SELECT p.id, p.nome, p.compagnia_fornitore_id, p.compagnia_contrattuale_id, p.ramo_id, p.mandato_attivo,
           f."ragioneSociale" AS fornitore, c.nome AS compagnia, r.codice AS ramo
    FROM categoria_prodotto p
    JOIN compagnia f ON f.id = p.compagnia_fornitore_id
    JOIN compagnia_contrattuale c ON c.id = p.compagnia_contrattuale_id
    LEFT JOIN ref_ramo r ON r.id = p.ramo_id
    WHERE p.id = ${id}`.execute(trx);
  return rows.rows[0];
}

/** A copy of a historic-car policy (src/server/domains/polizza_auto_storica/elenco.ts) changes only there. */
const autoStorica = (before: Record<string, unknown>) =>
  new HttpError(409, `Polizza auto storica emessa dalla quotazione n. ${String(before.quotazione_id)}: si gestisce dalla quotazione (storno, appendici).`);

// Titles are written only by their policy and by the payment routes (src/server/domains/polizza/routes.ts).
const readOnlyTitles = () => new HttpError(409, 'I titoli sono generati dalla polizza: si modificano solo con il pagamento o lo storno.');
// Due range of the titles list (/titoli): filter[scadenza_dal] and filter[scadenza_al] on the title's end date.
// Payments and reversals of titles, append-only: the history a reversal keeps.
export const POLIZZA_MIGRATION: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS titolo_movimento (
     id serial PRIMARY KEY,
     titolo_id integer NOT NULL REFERENCES titolo(id) ON DELETE RESTRICT,
     tipo text NOT NULL CHECK (tipo IN ('PAGAMENTO', 'STORNO')),
     data date NOT NULL,
     importo numeric(14,2) NOT NULL,
     tipo_pagamento text,
     nota text,
     user_id integer,
     user_name text NOT NULL,
     at timestamptz NOT NULL DEFAULT now())`,
  'CREATE INDEX IF NOT EXISTS titolo_movimento_titolo ON titolo_movimento (titolo_id, id)',
  'CREATE INDEX IF NOT EXISTS titolo_polizza_rata ON titolo (polizza_id, numero_rata)',
  // A policy number is the insurer's (the compagnia of fornitore_id): never twice for it, whatever the code path. The number
  // comes first so that a refusal names polizza_numero (422 'Valore già presente.' at the field, errors.ts).
  `CREATE UNIQUE INDEX IF NOT EXISTS polizza_numero_per_compagnia ON polizza (lower(polizza_numero), fornitore_id) WHERE polizza_numero IS NOT NULL`,
];

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('polizza', {
    async beforeWrite(operation, { trx, input, before }) {
      if (operation === 'update' && before?.polizza_auto_storica_id) throw autoStorica(before);
      const record: Record<string, unknown> = { ...(before ?? {}), ...input };
      const changed = (field: string) => operation === 'create' || (field in input && !same(input[field], before?.[field]));
      const errors: FieldErrors = {};

      // The product must be one of the supplier's under the contractual company (and of the branch when given).
      if (['mandato_prodotto_id', 'fornitore_id', 'compagnia_contrattuale_id', 'ramo_id'].some(changed)) {
        const exists = async (table: 'compagnia' | 'compagnia_contrattuale', id: unknown) =>
          (await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${Number(id)}`.execute(trx)).rows.length > 0;
        if (!(await exists('compagnia', record.fornitore_id))) errors.fornitore_id = ['Il fornitore selezionato non esiste.'];
        if (!(await exists('compagnia_contrattuale', record.compagnia_contrattuale_id))) errors.compagnia_contrattuale_id = ['La compagnia contrattuale selezionata non esiste.'];
        const p = await prodotto(trx, Number(record.mandato_prodotto_id));
        if (!p) errors.mandato_prodotto_id = ['Il prodotto selezionato non esiste.'];
        else if (!errors.fornitore_id && !errors.compagnia_contrattuale_id) {
          if (p.compagnia_fornitore_id !== record.fornitore_id) (errors.mandato_prodotto_id ??= []).push('Il prodotto non appartiene al fornitore selezionato.');
          if (p.compagnia_contrattuale_id !== record.compagnia_contrattuale_id) (errors.mandato_prodotto_id ??= []).push('Il prodotto non appartiene alla compagnia contrattuale selezionata.');
          if (record.ramo_id && p.ramo_id && p.ramo_id !== record.ramo_id) (errors.mandato_prodotto_id ??= []).push('Il prodotto non appartiene al ramo selezionato.');
          if (changed('mandato_prodotto_id') && p.mandato_attivo === false) (errors.mandato_prodotto_id ??= []).push('Il mandato di questo prodotto non è attivo.');
          if (!record.ramo_id && p.ramo_id) input.ramo_id = p.ramo_id;
          input.prodotto_label = `${p.fornitore} / ${p.compagnia} / ${p.nome}${p.ramo ? ` (${p.ramo})` : ''}`;
        }
      }

      if (changed('frazionamento_slug') || changed('data_entrata_in_effetto') || changed('data_scadenza')) {
        const fraz = await frazionamento(trx, String(record.frazionamento_slug));
        const inizio = String(record.data_entrata_in_effetto);
        const fine = String(record.data_scadenza);
        if (!fraz) errors.frazionamento_slug = ['Frazionamento non valido.'];
        else if (!(fine > inizio)) errors.data_scadenza = ['La data di scadenza deve essere successiva alla data di effetto.'];
        else {
          try {
            periodi(inizio, fine, fraz);
          } catch {
            errors.frazionamento_slug = [`Troppe rate: al massimo ${MAX_RATE}.`];
          }
        }
      }

      // Titles regenerate on these changes; once one is paid they are frozen, and so are the fields they come from.
      const regenerate = operation === 'create' || [...CAMPI_TITOLI, 'mandato_prodotto_id', 'collaboratore_id'].some(changed);
      if (operation === 'update' && regenerate && (await titoliPagati(trx, Number(before!.id))) > 0) {
        for (const field of CAMPI_TITOLI) {
          if (changed(field)) (errors[field] ??= []).push('La polizza ha titoli pagati: date, frazionamento e importi non sono più modificabili.');
        }
      }
      if (Object.keys(errors).length) throw invalid(errors);

      // The gross premium is the definition's x-computed sum, already filled in (or refused) by the repository's rules.
      input.premio = record.totale_premio_lordo ?? 0;
      input.data_inizio = record.data_entrata_in_effetto ?? null;
      input.data_fine = record.data_scadenza ?? null;
      if (operation === 'create') {
        // A client cannot send these (read-only); a historic-car copy comes with its own (paid before the issue).
        input.stato ??= 'GIACENZA';
        input.data_ultimo_stato ??= oggi();
        input.saldato ??= false;
      }
    },

    async afterWrite(operation, { trx, input, before, after }) {
      const changed = (field: string) => operation === 'create' || (field in input && !same(before?.[field], after?.[field]));
      const id = Number(after!.id);
      // A historic-car policy's premium was collected by its own flow before the issue: it has no titles here.
      if (after!.polizza_auto_storica_id) return;
      if ([...CAMPI_TITOLI, 'mandato_prodotto_id', 'collaboratore_id'].some(changed)) {
        // beforeWrite refused field changes with paid titles; a new product or collaborator then keeps the paid titles' figures.
        // With no title paid the policy's stato is GIACENZA already, so the answered record stays current.
        if ((await titoliPagati(trx, id)) === 0) {
          await generaTitoli(trx, after!);
          return;
        }
      }
      if (changed('cliente_id') || changed('collaboratore_id')) {
        await sql`UPDATE titolo SET cliente_id = ${after!.cliente_id ?? null}, collaboratore_id = ${after!.collaboratore_id ?? null},
          version = version + 1, updated_at = now() WHERE polizza_id = ${id}`.execute(trx);
      }
    },

    async beforeDelete({ trx, before }) {
      if (before!.polizza_auto_storica_id) throw autoStorica(before!);
      const id = Number(before!.id);
      const history = await sql<{ n: number }>`SELECT count(*)::int AS n FROM titolo_movimento m JOIN titolo t ON t.id = m.titolo_id WHERE t.polizza_id = ${id}`.execute(trx);
      if ((await titoliPagati(trx, id)) > 0 || history.rows[0]!.n > 0) {
        throw new HttpError(409, 'La polizza ha titoli con pagamenti registrati: non può essere eliminata.');
      }
      await sql`DELETE FROM titolo WHERE polizza_id = ${id}`.execute(trx);
      // Its identity card and contract go with it (the directory driver's files are swept once orphaned).
      const documenti = await sql<{ id: number }>`SELECT id FROM media WHERE owner_resource = 'polizza' AND owner_id = ${id}`.execute(trx);
      for (const d of documenti.rows) await app.ctx.media.deleteDocument(trx, Number(d.id));
    },
  });
  app.extensions.resourceHooks('titolo', {
    async beforeWrite() {
      throw readOnlyTitles();
    },
    async beforeDelete() {
      throw readOnlyTitles();
    },
  });
}
