// Registry eligibility of an issue (spec 001 §9): every insured vehicle needs a risk certificate (SIC/ATRC) with no claims in
// the last five years. Registry data missing on a vehicle are asked for first, so the check always reads the registries' answer.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { HttpError, invalid } from '../../errors.ts';
import { campiRegistro, contraenteDi, idoneitaRegistro, type DatiRegistro } from '../../../shared/registri.ts';
import { RegistroNonDisponibile, type RegistriAdapter } from '../../adapters/registri/types.ts';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';

type Row = Record<string, unknown>;

/** The history event of registry data stored on the user's behalf (not a machine event: the status does not change). */
export const EVENTO_DATI_REGISTRI = 'DATI_REGISTRI';

const assicurati = (row: Row) => ((row.veicoli_storici ?? []) as Row[]).filter((v) => v.operazione !== 'esclusione');

/**
 * Asks the registries for vehicles that have no registry data yet and stores the answers on the user's behalf (validated
 * like a PUT, version bumped, other edits kept, a DATI_REGISTRI row in the history).
 */
export async function completaRegistri(
  s: { db: Database; registri: RegistriAdapter; repo: ResourceRepository }, user: AuthUser, quotazioneId: number,
): Promise<void> {
  const { db, registri } = s;
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
    // A concurrent call (a second click on Emetti) completed the same vehicles first: nothing left to store.
    if (!assicurati(locked).some((v) => !v.json && risposte.has(chiave(v)))) return;
    const veicoli = ((locked.veicoli_storici ?? []) as Row[]).map((v) => {
      const dati = v.operazione === 'esclusione' ? undefined : risposte.get(chiave(v));
      if (!dati || v.json) return v;
      // Filling in, not refreshing: what staff typed (a previous policy's expiry, the entitled party) stays.
      const campi: Row = { ...campiRegistro(contraenteDi(locked), dati, String(v.tipologia_ania ?? 'A')) };
      for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined && x !== '') campi[k] = x;
      return { id: randomUUID(), ...v, ...campi };
    });
    const targhe = mancanti.map((v) => String(v.targa).trim().toUpperCase()).join(', ');
    // The answers were asked for the record as read above: an edit made meanwhile answers 409, as a PUT would.
    await s.repo.writeOnBehalf(trx, user, locked, { veicoli_storici: veicoli }, {
      version: Number(row.version),
      history: { event: EVENTO_DATI_REGISTRI, note: `Dati dei registri (ANIA/ATRC) acquisiti per ${targhe}.` },
    });
  });
}

/** Refuses the issue (and its preview) with the reasons, unless a super_admin switched the check off. */
export function verificaIdoneita(row: Row, controllo: boolean, oggi = new Date()): void {
  if (!controllo) return;
  const motivi = assicurati(row).map((v) => idoneitaRegistro({ targa: String(v.targa ?? ''), json: v.json as DatiRegistro | undefined }, oggi))
    .flatMap((esito) => (esito.ok ? [] : [esito.motivo]));
  if (motivi.length) throw invalid({ veicoli_storici: motivi }, motivi[0]);
}

