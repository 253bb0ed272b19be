// Reading the history (a record's timeline, the desk over every entry), its chain's verification, restore and retention.
import { sql, type Expression, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { AuthUser } from '../auth/user.ts';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import type { ResourceRepository } from '../resources/repository.ts';
import { HttpError, invalid } from '../errors.ts';

export type Azione = 'creazione' | 'modifica' | 'eliminazione' | 'transizione' | 'importazione' | 'ripristino' | 'accesso';
export const AZIONI: Azione[] = ['creazione', 'modifica', 'eliminazione', 'transizione', 'importazione', 'ripristino', 'accesso'];

/** One change as the API shows it: `nascosto` when the field's values are not the reader's to see (or secret). */
export interface Modifica { campo: string; da?: unknown; a?: unknown; nascosto?: true }

export interface Voce {
  id: number;
  at: string;
  risorsa: string;
  record_id: number | null;
  utente: { id: number | null; name: string | null } | null;
  origine: 'utente' | 'cliente' | 'sistema';
  indirizzo: string | null;
  richiesta: string | null;
  azione: Azione;
  evento: string | null;
  modifiche: Modifica[];
}

interface Riga {
  id: number | string;
  at: Date;
  risorsa: string;
  record_id: number | string | null;
  utente_id: number | null;
  utente_nome: string | null;
  origine: Voce['origine'];
  indirizzo: string | null;
  richiesta: string | null;
  azione: Azione;
  evento: string | null;
  modifiche: Record<string, [unknown, unknown] | { segreto: true }>;
}

type Stored = Riga['modifiche'][string];

const isRow = (v: unknown): v is Record<string, unknown> & { id: unknown } => !!v && typeof v === 'object' && !Array.isArray(v) && 'id' in v;

/** Nested rows (a quotation's vehicles) are compared row by row, by their id: `veicoli_storici.1.targa`. */
function expand(campo: string, da: unknown, a: unknown): Modifica[] {
  if (!Array.isArray(da) || !Array.isArray(a) || ![...da, ...a].every(isRow)) return [{ campo, da, a }];
  const before = new Map(da.map((row) => [String(row.id), row]));
  const out: Modifica[] = [];
  a.forEach((row, i) => {
    const old = before.get(String(row.id));
    before.delete(String(row.id));
    if (!old) return out.push({ campo: `${campo}.${i}`, da: null, a: row });
    for (const key of new Set([...Object.keys(old), ...Object.keys(row)])) {
      if (JSON.stringify(old[key] ?? null) !== JSON.stringify(row[key] ?? null)) out.push({ campo: `${campo}.${i}.${key}`, da: old[key] ?? null, a: row[key] ?? null });
    }
  });
  for (const row of before.values()) out.push({ campo: `${campo}.${da.indexOf(row)}`, da: row, a: null });
  return out;
}

export class Storico {
  constructor(private readonly db: Database, private readonly repos: (name: string) => ResourceRepository | undefined) {}

  private present(row: Riga, user: AuthUser): Voce {
    const repo = this.repos(row.risorsa);
    const modifiche: Modifica[] = [];
    for (const [campo, value] of Object.entries(row.modifiche) as Array<[string, Stored]>) {
      const hidden = !Array.isArray(value) || (repo ? !repo.mayReadField(campo, user) : false);
      if (hidden) {
        modifiche.push({ campo, nascosto: true });
        continue;
      }
      // Parts or values of the field the user may not read (an insurer's premium in each offer): changed, no values.
      const masked = (v: unknown) => (repo ? repo.presentPart({ [campo]: v }, user)[campo] : v);
      const shown = new Map(expand(campo, masked(value[0]), masked(value[1])).map((m) => [m.campo, m]));
      for (const change of expand(campo, value[0], value[1])) {
        const seen = shown.get(change.campo);
        const same = seen && JSON.stringify([seen.da, seen.a]) === JSON.stringify([change.da, change.a]);
        const whole = seen && (isRow(change.da) || isRow(change.a));
        modifiche.push(same || whole ? seen! : { campo: change.campo, nascosto: true });
      }
    }
    return {
      id: Number(row.id), at: row.at.toISOString(), risorsa: row.risorsa, record_id: row.record_id === null ? null : Number(row.record_id),
      utente: row.utente_id || row.utente_nome ? { id: row.utente_id, name: row.utente_nome } : null,
      origine: row.origine, indirizzo: row.indirizzo, richiesta: row.richiesta, azione: row.azione, evento: row.evento, modifiche,
    };
  }

  /** A record's timeline, newest first; the caller has checked the record is in the user's scope. */
  async ofRecord(def: ResourceDefinition, user: AuthUser, id: number, page: number, perPage: number) {
    const where = sql<SqlBool>`risorsa = ${def.name} AND record_id = ${id}`;
    return this.page(where, user, page, perPage);
  }

  /** Every entry, for the desk: filters by user, resource, record, field, action and time. */
  async all(user: AuthUser, filters: Filtri, page: number, perPage: number) {
    return this.page(condizioni(filters), user, page, perPage);
  }

  private async page(where: Expression<SqlBool>, user: AuthUser, page: number, perPage: number) {
    const rows = await sql<Riga>`SELECT id, at, risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche
      FROM storico WHERE ${where} ORDER BY id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`.execute(this.db);
    // The total is counted up to a bound: a filter matching millions must not count them all for the pager.
    const LIMIT = 10_000;
    const counted = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM storico WHERE ${where} LIMIT ${LIMIT + 1}) t`.execute(this.db);
    const n = counted.rows[0]!.n;
    const total = n > LIMIT ? Math.max(LIMIT, (page - 1) * perPage + rows.rows.length) : n;
    return {
      data: rows.rows.map((r) => this.present(r, user)),
      current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total, total_is_estimate: n > LIMIT,
    };
  }

  async entry(id: number): Promise<Riga | undefined> {
    const rows = await sql<Riga>`SELECT * FROM storico WHERE id = ${id}`.execute(this.db);
    return rows.rows[0];
  }

  /**
   * Writes back the values before an entry's change, as a PUT would (validation, version, row scope, the machine);
   * an 'eliminazione' entry brings the record back with its id. Recorded as 'ripristino' by the caller's context.
   */
  async restore(def: ResourceDefinition, repo: ResourceRepository, user: AuthUser, recordId: number, entryId: number, version: number | undefined) {
    const entry = await this.entry(entryId);
    if (!entry || entry.risorsa !== def.name || Number(entry.record_id) !== recordId) throw new HttpError(404, 'Voce dello storico non trovata.');
    const values: Record<string, unknown> = {};
    const writable = new Set(def.fields.filter((f) => !f.readOnly && !f.secret && !f.writeOnly).map((f) => f.name));
    for (const [campo, value] of Object.entries(entry.modifiche) as Array<[string, Stored]>) {
      if (!Array.isArray(value)) continue;
      if (entry.azione === 'eliminazione' ? def.fields.some((f) => f.name === campo) : writable.has(campo)) values[campo] = value[0];
    }
    if (entry.azione === 'eliminazione') return repo.reinsert(this.db, user, recordId, values);
    if (entry.azione === 'creazione') throw new HttpError(409, "La creazione di un record non si ripristina: eliminalo, se non serve.", undefined, undefined, 'CONFLICT');
    if (!Object.keys(values).length) {
      throw new HttpError(409, 'Questa modifica riguarda solo campi gestiti dal sistema: non si può ripristinare.', undefined, undefined, 'CONFLICT');
    }
    return repo.update(this.db, user, recordId, values, version);
  }

  /** Walks the chain from its base: the first entry whose hash, link or sequence does not hold, or ok with the count. */
  async verify(): Promise<{ ok: true; voci: number } | { ok: false; voci: number; prima_voce_alterata: Record<string, unknown> }> {
    // What was written since the last seal joins the chain first (an entry committed after this is the next walk's).
    await sealHistory(this.db);
    const broken = await sql<{ id: string; seq: string; motivo: string }>`
      SELECT id, seq, CASE WHEN NOT ok_hash THEN 'contenuto' WHEN seq <> prev_seq + 1 THEN 'voce mancante' ELSE 'collegamento' END AS motivo
      FROM (SELECT s.id, s.seq, s.hash_prec, s.hash IS NOT DISTINCT FROM storico_impronta(s, s.hash_prec) AS ok_hash,
                   lag(s.seq, 1, c.base_seq) OVER (ORDER BY s.seq) AS prev_seq,
                   lag(s.hash, 1, c.base_hash) OVER (ORDER BY s.seq) AS prev_hash
            FROM storico s CROSS JOIN storico_catena c WHERE s.seq IS NOT NULL) v
      WHERE NOT ok_hash OR seq <> prev_seq + 1 OR hash_prec IS DISTINCT FROM prev_hash
      ORDER BY seq LIMIT 1`.execute(this.db);
    const count = await sql<{ n: number; last: string | null; head: string }>`
      SELECT (SELECT count(*)::int FROM storico WHERE seq IS NOT NULL) AS n, (SELECT max(seq) FROM storico) AS last,
             (SELECT seq FROM storico_catena WHERE k) AS head`.execute(this.db);
    const { n, last, head } = count.rows[0]!;
    const first = broken?.rows[0];
    if (first) return { ok: false, voci: n, prima_voce_alterata: { id: Number(first.id), seq: Number(first.seq), motivo: first.motivo } };
    // The newest entries removed: the head remembers how far the chain went.
    if (Number(last ?? 0) !== Number(head) && n > 0) return { ok: false, voci: n, prima_voce_alterata: { id: null, seq: Number(last ?? 0) + 1, motivo: 'voci finali mancanti' } };
    return { ok: true, voci: n };
  }

  /**
   * Retention: removes the entries older than `days`, oldest first, and moves the chain's base to the last one removed,
   * so the rest still verifies from there (the base's hash is what the removed part proved).
   */
  async prune(days: number): Promise<number> {
    return this.db.transaction().execute((trx) => pruneHistory(trx, days));
  }
}

export interface Filtri { utente_id?: number; risorsa?: string; record_id?: number; campo?: string; azione?: string; dal?: string; al?: string }

function condizioni(f: Filtri): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [sql<SqlBool>`true`];
  if (f.utente_id !== undefined) parts.push(sql<SqlBool>`utente_id = ${f.utente_id}`);
  if (f.risorsa) parts.push(sql<SqlBool>`risorsa = ${f.risorsa}`);
  if (f.record_id !== undefined) parts.push(sql<SqlBool>`record_id = ${f.record_id}`);
  if (f.campo) parts.push(sql<SqlBool>`modifiche ? ${f.campo}`);
  if (f.azione) parts.push(sql<SqlBool>`azione = ${f.azione}`);
  if (f.dal) parts.push(sql<SqlBool>`at >= ${f.dal}::date`);
  if (f.al) parts.push(sql<SqlBool>`at < ${f.al}::date + 1`);
  return sql<SqlBool>`${sql.join(parts, sql` AND `)}`;
}

export function checkDate(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw invalid({ [field]: ['Data non valida (AAAA-MM-GG).'] });
  return value;
}

/** Seals the entries written since the last seal into the chain (in id order, one sealer at a time); answers how many. */
export async function sealHistory(db: Database | Transaction<any>): Promise<number> { // eslint-disable-line @typescript-eslint/no-explicit-any -- engine tables are untyped
  const sealed = await sql<{ n: number }>`SELECT storico_sigilla_pendenti() AS n`.execute(db);
  return Number(sealed.rows[0]!.n);
}

/** Retention inside a caller's transaction (the scheduled job's, so the pruning and its run's outcome commit together). */
export async function pruneHistory(trx: Transaction<any>, days: number, now: Date = new Date()): Promise<number> { // eslint-disable-line @typescript-eslint/no-explicit-any -- engine tables are untyped
  await sealHistory(trx);
  const last = await sql<{ seq: string; hash: Buffer }>`
    SELECT seq, hash FROM storico WHERE seq IS NOT NULL AND at < ${now}::timestamptz - make_interval(days => ${days}) ORDER BY seq DESC LIMIT 1`.execute(trx);
  const base = last.rows[0];
  if (!base) return 0;
  await sql`UPDATE storico_catena SET base_seq = ${base.seq}, base_hash = ${base.hash} WHERE k`.execute(trx);
  await sql`SELECT set_config('storico.potatura', 'on', true)`.execute(trx);
  const removed = await sql`DELETE FROM storico WHERE seq <= ${base.seq}`.execute(trx);
  return Number(removed.numAffectedRows ?? 0);
}
