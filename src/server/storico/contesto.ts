// Who writes, from where: each request's actor travels with its async context to the database driver, which hands it
// to the history trigger as a transaction setting, so no write path (generic, domain, raw SQL) has to pass it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, PostgresDriver, PostgresDialect, sql, type DatabaseConnection, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/connection.ts';

export type Origine = 'utente' | 'cliente' | 'sistema';

export interface Attore {
  utente_id: number | null;
  utente_nome: string | null;
  origine: Origine;
  indirizzo: string | null;
  richiesta: string | null;
  /** An operation that is more than its writes (an import, a restore): every entry it leaves says so. */
  azione?: string;
  evento?: string;
}

/** A request's context: the actor is read when a transaction starts (the user is known only after authentication). */
export interface ContestoStorico {
  attore(): Attore;
}

const store = new AsyncLocalStorage<ContestoStorico>();

export function conContesto<T>(contesto: ContestoStorico, run: () => T): T {
  return store.run(contesto, run);
}

export function contestoCorrente(): ContestoStorico | undefined {
  return store.getStore();
}

/** Runs `work` with its writes marked as one operation (`{azione: 'ripristino'}`), same actor. */
export function conMarca<T>(marca: { azione?: string; evento?: string }, work: () => T): T {
  const outer = store.getStore();
  const attore = () => ({ ...(outer?.attore() ?? { utente_id: null, utente_nome: null, origine: 'sistema' as const, indirizzo: null, richiesta: null }), ...marca });
  return store.run({ attore }, work);
}

/** Work the server does by itself (start-up, scheduled jobs, the seed) is recorded as 'sistema'. */
export function comeSistema<T>(run: () => T): T {
  return store.exit(run);
}

function settingSql(attore: Attore): string {
  const json = JSON.stringify(attore).replace(/'/g, "''");
  return `select set_config('storico.contesto', '${json}', true)`;
}

const WRITE = /^\s*(?:with\b[\s\S]*\b(?:insert|update|delete)\b|insert\b|update\b|delete\b|merge\b)/i;
const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

function isWrite(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (WRITE_KINDS.has(kind)) return true;
  return kind === 'RawNode' && WRITE.test(query.sql);
}

/** The pg driver, plus the actor in every transaction a request opens; a lone write of a request gets one of its own. */
class StoricoDriver extends PostgresDriver {
  readonly #inTransaction = new WeakSet<DatabaseConnection>();
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #original = new WeakMap<DatabaseConnection, DatabaseConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let wrapped = this.#wrapped.get(connection);
    if (!wrapped) {
      const inTransaction = this.#inTransaction;
      const executeQuery = connection.executeQuery.bind(connection);
      const self: DatabaseConnection = {
        executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
          const contesto = store.getStore();
          if (!contesto || inTransaction.has(self) || !isWrite(query)) return executeQuery<R>(query);
          await executeQuery(CompiledQuery.raw(`begin; ${settingSql(contesto.attore())}`));
          try {
            const result = await executeQuery<R>(query);
            await executeQuery(CompiledQuery.raw('commit'));
            return result;
          } catch (error) {
            await executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
            throw error;
          }
        },
        streamQuery: connection.streamQuery.bind(connection),
      };
      wrapped = self;
      this.#wrapped.set(connection, wrapped);
      this.#original.set(wrapped, connection);
    }
    return wrapped;
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const contesto = store.getStore();
    this.#inTransaction.add(connection);
    if (!contesto || settings.isolationLevel || settings.accessMode) return super.beginTransaction(connection, settings);
    // One round trip: BEGIN and the setting travel together (simple protocol, the JSON inlined as a literal).
    await connection.executeQuery(CompiledQuery.raw(`begin; ${settingSql(contesto.attore())}`));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction.delete(connection);
    return super.commitTransaction(connection);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction.delete(connection);
    return super.rollbackTransaction(connection);
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#inTransaction.delete(connection);
    return super.releaseConnection((this.#original.get(connection) ?? connection) as Parameters<PostgresDriver['releaseConnection']>[0]);
  }
}

/** The pg dialect with the history's driver. */
export class StoricoDialect extends PostgresDialect {
  readonly #pool: pg.Pool;
  constructor(pool: pg.Pool) {
    super({ pool });
    this.#pool = pool;
  }
  override createDriver() {
    return new StoricoDriver({ pool: this.#pool });
  }
}

/**
 * Runs `write` with the action and event its history entries carry (a transition, an import, a restore), inside the
 * caller's transaction; the settings end with the transaction, and are cleared after `write` for what follows.
 */
export async function conAzione<T>(trx: Database, marca: { azione?: string; evento?: string }, write: () => Promise<T>): Promise<T> {
  await sql`select set_config('storico.azione', ${marca.azione ?? ''}, true), set_config('storico.evento', ${marca.evento ?? ''}, true)`.execute(trx);
  const result = await write();
  await sql`select set_config('storico.azione', '', true), set_config('storico.evento', '', true)`.execute(trx);
  return result;
}

/**
 * A bulk operation in the caller's transaction (an import replacing a catalogue): its rows leave no entry each, the
 * returned function writes the one entry that sums it up (`modifiche`: what changed, as {campo: [prima, dopo]}).
 */
export async function operazioneMassiva(trx: Database, risorsa: string, azione: string) {
  await sql`select set_config('storico.massivo', 'on', true)`.execute(trx);
  return async (modifiche: Record<string, [unknown, unknown]>) => {
    await sql`select set_config('storico.massivo', '', true)`.execute(trx);
    const a = store.getStore()?.attore() ?? { utente_id: null, utente_nome: null, origine: 'sistema', indirizzo: null, richiesta: null };
    await sql`INSERT INTO storico (risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
      VALUES (${risorsa}, NULL, ${a.utente_id}, ${a.utente_nome}, ${a.origine}, ${a.indirizzo}, ${a.richiesta}, ${azione}, NULL, ${JSON.stringify(modifiche)}::jsonb)`.execute(trx);
  };
}

/**
 * A sign-in event (login, failed login, logout, password change, sessions revoked) in the history of the user it
 * concerns; made by the signed-in actor when there is one (an administrator disabling a user), else by that user.
 */
export async function registraAccesso(db: Database, risorsa: string, evento: string, utente: { id: number | null; name: string | null }): Promise<void> {
  const a = store.getStore()?.attore();
  const actor = a?.utente_id ? { id: a.utente_id, name: a.utente_nome } : utente;
  await sql`INSERT INTO storico (risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
    VALUES (${risorsa}, ${utente.id}, ${actor.id}, ${actor.name?.slice(0, 255) ?? null}, 'utente', ${a?.indirizzo ?? null}, ${a?.richiesta ?? null},
      'accesso', ${evento}, '{}'::jsonb)`.execute(db);
}

/**
 * An event of a record that is no change of its row (a notice sent to the customer, a schedule switched off): one entry
 * in the caller's transaction, by the actor of the context (the user of a request, 'sistema' in a scheduled job).
 */
export async function registraEvento(
  db: Database, risorsa: string, recordId: number | null, evento: string, modifiche: Record<string, [unknown, unknown]>,
  // 'transizione' for an event that changed no field of the record (nothing to restore), 'modifica' for a setting changed.
  azione: 'modifica' | 'transizione' = 'modifica',
): Promise<void> {
  const a = store.getStore()?.attore() ?? { utente_id: null, utente_nome: null, origine: 'sistema' as const, indirizzo: null, richiesta: null };
  await sql`INSERT INTO storico (risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
    VALUES (${risorsa}, ${recordId}, ${a.utente_id}, ${a.utente_nome?.slice(0, 255) ?? null}, ${a.origine}, ${a.indirizzo}, ${a.richiesta},
      ${azione}, ${evento}, ${JSON.stringify(modifiche)}::jsonb)`.execute(db);
}
