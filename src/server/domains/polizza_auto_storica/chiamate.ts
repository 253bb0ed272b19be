// Outbound calls that change something at a third party, exactly once: the key is committed before the call, one open call per record
// (row lock + partial unique index, so concurrent requests and other app instances wait their turn), and an unknown outcome is
// reconciled with the third party's lookup by key before anything is retried.
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import { HttpError } from '../../errors.ts';
import type { MigrationStatement } from '../../extensions.ts';

export const CHIAMATE_TABLES: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS chiamata_esterna (
     id bigserial PRIMARY KEY,
     chiave uuid NOT NULL UNIQUE,
     sistema text NOT NULL,
     operazione text NOT NULL,
     resource text NOT NULL,
     record_id integer NOT NULL,
     stato text NOT NULL CHECK (stato IN ('in_corso', 'incerta', 'confermata', 'fallita')),
     richiesta jsonb NOT NULL,
     risposta jsonb,
     errore text,
     tentativi integer NOT NULL DEFAULT 0,
     utente jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now())`,
  // At most one call in flight or of unknown outcome per record: the database itself refuses a second one.
  `CREATE UNIQUE INDEX IF NOT EXISTS chiamata_esterna_aperta ON chiamata_esterna (resource, record_id) WHERE stato IN ('in_corso', 'incerta')`,
  `CREATE INDEX IF NOT EXISTS chiamata_esterna_record ON chiamata_esterna (resource, record_id, created_at)`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Trx = Transaction<any>;

export const IN_CORSO = "Attendere la fine dell'operaione in corso";

export interface ChiamataEsterna {
  id: number;
  chiave: string;
  sistema: string;
  operazione: string;
  resource: string;
  record_id: number;
  stato: 'in_corso' | 'incerta' | 'confermata' | 'fallita';
  richiesta: unknown;
  risposta: unknown;
  errore: string | null;
  tentativi: number;
  utente: UtenteChiamata;
  updated_at: Date;
}

/** Who made the call, kept with it: a late or reconciled answer is recorded in their name. */
export type UtenteChiamata = Pick<AuthUser, 'id' | 'name' | 'email' | 'permissions' | 'roles' | 'collaboratore_id'>;

export function utenteChiamata(user: AuthUser): UtenteChiamata {
  return { id: user.id, name: user.name, email: user.email, permissions: user.permissions, roles: user.roles, collaboratore_id: user.collaboratore_id };
}

export function utenteDa(u: UtenteChiamata): AuthUser {
  return { ...u, tokenId: 0 };
}

/** What a third party answered, or that the outcome is unknown (timeout, 5xx, reset connection). */
export type Risposta<R> = { esito: R } | { incerto: string };

export interface Operazione<R, Out> {
  sistema: string;
  operazione: string;
  resource: string;
  recordId: number;
  user: AuthUser;
  /** Checks under the record's lock (status, permissions, data); returns the request to send, or throws to refuse. */
  prepara(trx: Trx): Promise<unknown>;
  /** The outside call with the committed key. */
  chiama(chiave: string, richiesta: unknown): Promise<Risposta<R>>;
  /** The third party's lookup by key; undefined when it has none (the call is then marked failed, never retried blindly). */
  cerca?(chiave: string): Promise<Risposta<{ trovata: false } | { trovata: true; esito: R }>>;
  /** Records a confirmed answer under the record's lock; runs once per key. */
  registra(trx: Trx, esito: R, chiamata: ChiamataEsterna): Promise<Out>;
  /** The answer to give when the key's answer had already been recorded (a duplicate delivery, a reconciliation). */
  giaRegistrata(trx: Trx, chiamata: ChiamataEsterna): Promise<Out>;
  /**
   * A confirmed answer that `registra` refused with RispostaInConflitto (it contradicts what is recorded here): records
   * why on the record, under its lock; the call is then closed as failed, never retried with the same key.
   */
  inConflitto?(trx: Trx, esito: R, chiamata: ChiamataEsterna, conflitto: RispostaInConflitto): Promise<void>;
  /** Attempts of the same call (same key) after a lookup says the third party never received it. */
  tentativi?: number;
  /** An in-flight call older than this is considered abandoned (its process died) and is reconciled. */
  leaseMs?: number;
}

async function lockRecord(trx: Trx, resource: string, id: number): Promise<void> {
  await sql`SELECT id FROM ${sql.table(resource)} WHERE id = ${id} FOR UPDATE`.execute(trx);
}

/** The open call of a record; `scaduta` on the database's clock, the same for every app instance. */
async function aperta(trx: Trx, resource: string, id: number, leaseMs: number): Promise<(ChiamataEsterna & { scaduta: boolean }) | undefined> {
  const rows = await sql<ChiamataEsterna & { scaduta: boolean }>`SELECT *, now() - updated_at > make_interval(secs => ${leaseMs / 1000}) AS scaduta
    FROM chiamata_esterna WHERE resource = ${resource} AND record_id = ${id} AND stato IN ('in_corso', 'incerta') FOR UPDATE`.execute(trx);
  return rows.rows[0];
}

async function perChiave(trx: Trx, chiave: string): Promise<ChiamataEsterna | undefined> {
  return (await sql<ChiamataEsterna>`SELECT * FROM chiamata_esterna WHERE chiave = ${chiave} FOR UPDATE`.execute(trx)).rows[0];
}

async function segna(db: Database | Trx, id: number, stato: ChiamataEsterna['stato'], extra: { risposta?: unknown; errore?: string; tentativi?: number } = {}): Promise<void> {
  await sql`UPDATE chiamata_esterna SET stato = ${stato}, updated_at = now(),
    risposta = coalesce(${extra.risposta === undefined ? null : JSON.stringify(extra.risposta)}::jsonb, risposta),
    errore = ${extra.errore ?? null}, tentativi = coalesce(${extra.tentativi ?? null}::int, tentativi)
    WHERE id = ${id}`.execute(db);
}

/**
 * The third party confirmed something that contradicts what is recorded here (e.g. a policy number already held by another
 * record). Asking again with the same key would get the same answer for ever: the call is closed as failed instead.
 */
export class RispostaInConflitto extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RispostaInConflitto';
  }
}

/**
 * Records a confirmed answer for a key, once: under the record's lock, the call row decides whether it is new.
 * Used by the caller, by reconciliation and by a duplicate delivery of the same answer.
 */
export async function registraRisposta<R, Out>(db: Database, op: Pick<Operazione<R, Out>, 'resource' | 'registra' | 'giaRegistrata' | 'inConflitto'>, recordId: number, chiave: string, esito: R): Promise<Out> {
  const out = await db.transaction().execute(async (trx): Promise<{ out: Out } | { conflitto: RispostaInConflitto }> => {
    await lockRecord(trx, op.resource, recordId);
    const chiamata = await perChiave(trx, chiave);
    if (!chiamata) throw new Error(`chiamata ${chiave} sconosciuta`);
    if (chiamata.stato === 'confermata') return { out: await op.giaRegistrata(trx, chiamata) };
    // Already closed because its answer conflicted here: a second delivery of that answer changes nothing.
    if (chiamata.stato === 'fallita' && chiamata.risposta !== null && chiamata.errore) return { conflitto: new RispostaInConflitto(chiamata.errore) };
    // A refused registration is undone to here: what remains is the record of why, and the closed call.
    await sql`SAVEPOINT registra_risposta`.execute(trx);
    try {
      const out = await op.registra(trx, esito, chiamata);
      await segna(trx, chiamata.id, 'confermata', { risposta: esito });
      return { out };
    } catch (error) {
      if (!(error instanceof RispostaInConflitto)) throw error;
      await sql`ROLLBACK TO SAVEPOINT registra_risposta`.execute(trx);
      await op.inConflitto?.(trx, esito, chiamata, error);
      await segna(trx, chiamata.id, 'fallita', { risposta: esito, errore: error.message });
      return { conflitto: error };
    }
  });
  if ('conflitto' in out) throw new HttpError(409, out.conflitto.message, undefined, { result: null });
  return out.out;
}

const incerta = (message: string) => new HttpError(502, `Esito incerto: ${message} L'esito verrà verificato con la compagnia prima di ogni nuovo tentativo.`, undefined, { result: null });

/** Asks the third party what became of an open call; records it, or frees the record when the call never arrived. */
async function riconcilia<R, Out>(db: Database, op: Operazione<R, Out>, chiamata: ChiamataEsterna): Promise<{ out: Out } | { libera: true }> {
  if (!op.cerca) {
    await segna(db, chiamata.id, 'fallita', { errore: 'Esito non verificabile: nessuna ricerca per chiave presso il sistema esterno.' });
    return { libera: true };
  }
  const found = await op.cerca(chiamata.chiave);
  if ('incerto' in found) {
    await segna(db, chiamata.id, 'incerta', { errore: found.incerto });
    throw incerta(found.incerto);
  }
  if (found.esito.trovata) return { out: await registraRisposta(db, op, chiamata.record_id, chiamata.chiave, found.esito.esito) };
  // Only a fresh lock on the row may close it: another request may be reconciling the same call.
  await db.transaction().execute(async (trx) => {
    await lockRecord(trx, op.resource, chiamata.record_id);
    const again = await perChiave(trx, chiamata.chiave);
    if (again && (again.stato === 'in_corso' || again.stato === 'incerta')) await segna(trx, again.id, 'fallita', { errore: 'La compagnia non ha ricevuto la chiamata.' });
  });
  return { libera: true };
}

/** Anything unexpected during or after the call leaves its outcome unknown: the next request reconciles at once. */
async function dubbia<T>(db: Database, chiamata: ChiamataEsterna, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await sql`UPDATE chiamata_esterna SET stato = 'incerta', errore = ${String((error as Error).message ?? error)}, updated_at = now()
      WHERE id = ${chiamata.id} AND stato = 'in_corso'`.execute(db).catch(() => undefined);
    throw error;
  }
}

/** Runs one outside operation exactly once; see the file's first comment. */
export async function eseguiUnaVolta<R, Out>(db: Database, op: Operazione<R, Out>): Promise<Out> {
  // Longer than the slowest call (timeout × attempts, plus lookups): a live request is never taken for an abandoned one.
  const lease = op.leaseMs ?? 300_000;
  for (let round = 0; round < 3; round++) {
    const start = await db.transaction().execute(async (trx): Promise<{ riconcilia: ChiamataEsterna } | { nuova: ChiamataEsterna }> => {
      await lockRecord(trx, op.resource, op.recordId);
      const open = await aperta(trx, op.resource, op.recordId, lease);
      if (open) {
        if (open.stato === 'in_corso' && !open.scaduta) throw new HttpError(409, IN_CORSO, undefined, undefined, 'IN_PROGRESS');
        return { riconcilia: open };
      }
      const richiesta = await op.prepara(trx);
      const chiave = randomUUID();
      const inserted = await sql<ChiamataEsterna>`INSERT INTO chiamata_esterna (chiave, sistema, operazione, resource, record_id, stato, richiesta, utente)
        VALUES (${chiave}, ${op.sistema}, ${op.operazione}, ${op.resource}, ${op.recordId}, 'in_corso', ${JSON.stringify(richiesta)}::jsonb,
        ${JSON.stringify(utenteChiamata(op.user))}::jsonb) RETURNING *`.execute(trx);
      return { nuova: inserted.rows[0]! };
    });
    if ('riconcilia' in start) {
      const result = await riconcilia(db, op, start.riconcilia);
      // A call of the same kind that did reach the third party is this request's answer; otherwise start afresh.
      if ('out' in result && start.riconcilia.operazione === op.operazione) return result.out;
      continue;
    }
    const chiamata = start.nuova;
    const attempts = op.tentativi ?? 3;
    for (let attempt = 1; ; attempt++) {
      await sql`UPDATE chiamata_esterna SET tentativi = ${attempt}, updated_at = now() WHERE id = ${chiamata.id}`.execute(db);
      const answer = await dubbia(db, chiamata, () => op.chiama(chiamata.chiave, chiamata.richiesta));
      if ('esito' in answer) return dubbia(db, chiamata, () => registraRisposta(db, op, op.recordId, chiamata.chiave, answer.esito));
      if (!op.cerca) {
        await segna(db, chiamata.id, 'fallita', { errore: answer.incerto });
        throw new HttpError(502, answer.incerto);
      }
      // Unknown outcome: the key tells whether the third party committed, before anything is sent again.
      const found = await op.cerca(chiamata.chiave);
      if ('incerto' in found) {
        await segna(db, chiamata.id, 'incerta', { errore: `${answer.incerto} ${found.incerto}` });
        throw incerta(answer.incerto);
      }
      if (found.esito.trovata) {
        const esito = found.esito.esito;
        return dubbia(db, chiamata, () => registraRisposta(db, op, op.recordId, chiamata.chiave, esito));
      }
      if (attempt >= attempts) {
        await segna(db, chiamata.id, 'fallita', { errore: answer.incerto });
        throw new HttpError(502, `${answer.incerto} Nessuna operazione è stata eseguita: si può riprovare.`, undefined, { result: null });
      }
    }
  }
  throw new HttpError(409, IN_CORSO, undefined, undefined, 'IN_PROGRESS');
}

/** The calls made for a record, newest first (the log of resends and attempts). */
export async function chiamateDi(db: Database, resource: string, recordId: number) {
  const rows = await sql<Record<string, unknown>>`SELECT id, chiave, sistema, operazione, stato, risposta, errore, tentativi, utente->>'name' AS utente, created_at, updated_at
    FROM chiamata_esterna WHERE resource = ${resource} AND record_id = ${recordId} ORDER BY id DESC`.execute(db);
  return rows.rows;
}
