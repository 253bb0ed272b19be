// Registry eligibility of an issue (spec 001 §9): every insured vehicle needs a risk certificate (SIC/ATRC) with no claims in
// the last five years. Registry data missing on a vehicle are asked for first, so the check always reads the registries' answer.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { HttpError, invalid } from '../../errors.ts';
import { campiRegistro, contraenteDi, idoneitaRegistro, type DatiRegistro } from '../../../shared/registri.ts';
import { RegistroNonDisponibile, type RegistriAdapter } from '../../adapters/registri/types.ts';
import type { Database } from '../../db/connection.ts';

type Row = Record<string, unknown>;

const assicurati = (row: Row) => ((row.veicoli_storici ?? []) as Row[]).filter((v) => v.operazione !== 'esclusione');

/** Asks the registries for vehicles that have no registry data yet and stores the answers (version bumped, other edits kept). */
export async function completaRegistri(db: Database, registri: RegistriAdapter, quotazioneId: number): Promise<void> {
  const row = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${quotazioneId}`.execute(db)).rows[0];
  if (!row) return;
  const chiave = (v: Row) => `${String(v.targa ?? '').trim().toUpperCase()}|${String(v.tipologia_ania ?? 'A')}`;
  const mancanti = assicurati(row).filter((v) => !v.json && String(v.targa ?? '').trim().length > 5);
  if (!mancanti.length) return;
  const risposte = new Map<string, DatiRegistro>();
  for (const v of mancanti) {
    try {
      risposte.set(chiave(v), await registri.interroga({ targa: String(v.targa).trim().toUpperCase(), tipologia: String(v.tipologia_ania ?? 'A'), codiceFiscaleContraente: contraenteDi(row).codice_fiscale ?? undefined }));
    } catch (error) {
      if (error instanceof RegistroNonDisponibile) throw new HttpError(503, error.message);
      throw error;
    }
  }
  await db.transaction().execute(async (trx) => {
    const locked = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${quotazioneId} FOR UPDATE`.execute(trx)).rows[0]!;
    const veicoli = ((locked.veicoli_storici ?? []) as Row[]).map((v) => {
      const dati = v.operazione === 'esclusione' ? undefined : risposte.get(chiave(v));
      if (!dati || v.json) return v;
      // Filling in, not refreshing: what staff typed (a previous policy's expiry, the entitled party) stays.
      const campi: Row = { ...campiRegistro(contraenteDi(locked), dati, String(v.tipologia_ania ?? 'A')) };
      for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined && x !== '') campi[k] = x;
      return { id: randomUUID(), ...v, ...campi };
    });
    await sql`UPDATE quotazione SET veicoli_storici = ${JSON.stringify(veicoli)}::jsonb, version = version + 1, updated_at = now() WHERE id = ${quotazioneId}`.execute(trx);
  });
}

/** Refuses the issue (and its preview) with the reasons, unless a super_admin switched the check off. */
export function verificaIdoneita(row: Row, controllo: boolean, oggi = new Date()): void {
  if (!controllo) return;
  const motivi = assicurati(row).map((v) => idoneitaRegistro({ targa: String(v.targa ?? ''), json: v.json as DatiRegistro | undefined }, oggi))
    .flatMap((esito) => (esito.ok ? [] : [esito.motivo]));
  if (motivi.length) throw invalid({ veicoli_storici: motivi }, motivi[0]);
}

