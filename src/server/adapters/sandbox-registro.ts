// The books of the sandboxed third parties (historic-car insurer, its appendices, Koala), kept in PostgreSQL like a real
// system keeps them: a process restart or another app instance never forgets an answer given for a key nor reuses a number.
// Created on first use (only a sandbox needs them), once per database, under an advisory lock so instances may race.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Trx = Transaction<any>;

const TABELLE = [
  `CREATE TABLE IF NOT EXISTS sandbox_registro (
     sistema text NOT NULL,
     chiave text NOT NULL,
     operazione text NOT NULL,
     riferimento text,
     numero text,
     esito jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (sistema, chiave))`,
  'CREATE INDEX IF NOT EXISTS sandbox_registro_riferimento ON sandbox_registro (sistema, riferimento)',
  'CREATE INDEX IF NOT EXISTS sandbox_registro_numero ON sandbox_registro (sistema, numero)',
  'CREATE TABLE IF NOT EXISTS sandbox_contatore (sistema text PRIMARY KEY, valore bigint NOT NULL)',
];

export interface VoceRegistro<E> {
  chiave: string;
  operazione: string;
  riferimento: string | null;
  numero: string | null;
  esito: E;
}

const pronti = new WeakMap<Database, Promise<void>>();

/**
 * One sandboxed system's books. `avvio` runs once per database when the system's counter is first created: it returns
 * the counter's starting value, past every number this system is already known to have given (data issued before its
 * books were kept here), and may record those in the books.
 */
export class RegistroSandbox {
  private avviato?: Promise<void>;

  constructor(readonly db: Database, readonly sistema: string, private readonly avvio: (trx: Trx) => Promise<number> = async () => 0) {}

  private pronto(): Promise<void> {
    let tabelle = pronti.get(this.db);
    if (!tabelle) {
      tabelle = this.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext('sandbox_registro'))`.execute(trx);
        for (const statement of TABELLE) await sql.raw(statement).execute(trx);
      });
      tabelle.catch(() => pronti.delete(this.db));
      pronti.set(this.db, tabelle);
    }
    this.avviato ??= tabelle.then(() => this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext('sandbox_contatore'), hashtext(${this.sistema}))`.execute(trx);
      const esiste = await sql`SELECT 1 FROM sandbox_contatore WHERE sistema = ${this.sistema}`.execute(trx);
      if (esiste.rows.length) return;
      const iniziale = await this.avvio(trx);
      await sql`INSERT INTO sandbox_contatore (sistema, valore) VALUES (${this.sistema}, ${iniziale})`.execute(trx);
    })).catch((error: unknown) => {
      this.avviato = undefined;
      throw error;
    });
    return this.avviato;
  }

  async voce<E>(chiave: string): Promise<VoceRegistro<E> | undefined> {
    await this.pronto();
    return (await sql<VoceRegistro<E>>`SELECT chiave, operazione, riferimento, numero, esito FROM sandbox_registro
      WHERE sistema = ${this.sistema} AND chiave = ${chiave}`.execute(this.db)).rows[0];
  }

  async voci<E>(filtro: { riferimento?: string; numero?: string; operazione?: string }): Promise<Array<VoceRegistro<E>>> {
    await this.pronto();
    return (await sql<VoceRegistro<E>>`SELECT chiave, operazione, riferimento, numero, esito FROM sandbox_registro
      WHERE sistema = ${this.sistema}
        AND (${filtro.riferimento ?? null}::text IS NULL OR riferimento = ${filtro.riferimento ?? null})
        AND (${filtro.numero ?? null}::text IS NULL OR numero = ${filtro.numero ?? null})
        AND (${filtro.operazione ?? null}::text IS NULL OR operazione = ${filtro.operazione ?? null})
      ORDER BY created_at, chiave`.execute(this.db)).rows;
  }

  /**
   * The answer for a key, decided once: the first call runs `decidi` (which may take numbers with `prossimo`) and records
   * it; every later call, from any process, gets the recorded answer.
   */
  async unaVolta<E>(chiave: string, decidi: (prossimo: () => Promise<number>, trx: Trx) => Promise<{ operazione: string; riferimento?: string; numero?: string; esito: E }>): Promise<VoceRegistro<E>> {
    await this.pronto();
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${this.sistema}), hashtext(${chiave}))`.execute(trx);
      const registrata = (await sql<VoceRegistro<E>>`SELECT chiave, operazione, riferimento, numero, esito FROM sandbox_registro
        WHERE sistema = ${this.sistema} AND chiave = ${chiave}`.execute(trx)).rows[0];
      if (registrata) return registrata;
      const prossimo = async () => Number((await sql<{ valore: number }>`UPDATE sandbox_contatore SET valore = valore + 1
        WHERE sistema = ${this.sistema} RETURNING valore`.execute(trx)).rows[0]!.valore);
      const voce = await decidi(prossimo, trx);
      await sql`INSERT INTO sandbox_registro (sistema, chiave, operazione, riferimento, numero, esito)
        VALUES (${this.sistema}, ${chiave}, ${voce.operazione}, ${voce.riferimento ?? null}, ${voce.numero ?? null}, ${JSON.stringify(voce.esito)}::jsonb)`.execute(trx);
      return { chiave, operazione: voce.operazione, riferimento: voce.riferimento ?? null, numero: voce.numero ?? null, esito: voce.esito };
    });
  }
}
