// The one scheduler: schedules are data (schemas/_shared/pianificazioni.json: name, cron in Europe/Rome time, the job,
// enabled), their state and runs live in PostgreSQL. Every instance ticks; a due time becomes one run (unique per
// schedule and due time, claimed under a row lock), a job runs inside the transaction that records its success (so its
// writes happen once), a run interrupted by a crash is taken up again when its lease ends, a failed one is retried
// with growing pauses.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type Transaction } from 'kysely';
import { CronExpressionParser } from 'cron-parser';
import type { Database } from '../db/connection.ts';
import { comeSistema, registraEvento } from '../storico/contesto.ts';

export const TIME_ZONE = 'Europe/Rome';

export interface Schedule {
  nome: string;
  titolo: string;
  descrizione: string;
  /** Five fields (minute hour day month weekday), read in Europe/Rome time. */
  cron: string;
  /** The job it runs, by its registered name. */
  lavoro: string;
  attiva: boolean;
}

export interface JobContext {
  /** The run's transaction: what the job writes commits with its success, or not at all. */
  trx: Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- engine tables are untyped
  /** The due time the run is for (now, for 'Esegui ora'). */
  dovuta: Date;
  now: Date;
}

/** A job answers its outcome in a line ('12 voci rimosse'); a throw is a failure, retried. */
export type Job = (context: JobContext) => Promise<string>;

export interface SchedulerOptions {
  /** The clock (tests move it). */
  now?: () => Date;
  /** How long a started run is this instance's; past it, another instance takes it up. */
  leaseMs?: number;
  maxAttempts?: number;
  instance?: string;
  log?: (line: string) => void;
}

export interface RunRecord {
  id: number;
  nome: string;
  dovuta: Date;
  tentativo: number;
}

const BACKOFF_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];

/** The next due time after `after`, in Europe/Rome time; throws on an expression that is not a valid cron. */
export function nextDue(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: TIME_ZONE }).next().toDate();
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** _shared/pianificazioni.json (Definitions.schedules), checked: a bad entry stops the start with its reason. */
export function checkSchedules(raw: unknown, jobs: ReadonlyMap<string, Job>): Schedule[] {
  const file = 'schemas/_shared/pianificazioni.json';
  if (!Array.isArray(raw)) throw new Error(`${file}: un elenco di pianificazioni`);
  const list = raw as Schedule[];
  const seen = new Set<string>();
  for (const s of list) {
    const where = `${file}: pianificazione "${String(s?.nome)}"`;
    if (typeof s?.nome !== 'string' || !NAME.test(s.nome) || seen.has(s.nome)) throw new Error(`${where}: nome mancante, non valido o ripetuto`);
    seen.add(s.nome);
    if (typeof s.titolo !== 'string' || typeof s.descrizione !== 'string' || typeof s.attiva !== 'boolean') throw new Error(`${where}: servono titolo, descrizione e attiva`);
    if (!jobs.has(s.lavoro)) throw new Error(`${where}: lavoro sconosciuto "${String(s.lavoro)}"`);
    try {
      if (typeof s.cron !== 'string' || s.cron.trim().split(/\s+/).length !== 5) throw new Error('servono cinque campi');
      nextDue(s.cron, new Date());
    } catch (error) {
      throw new Error(`${where}: espressione cron non valida "${String(s.cron)}" (${(error as Error).message})`, { cause: error });
    }
  }
  return list;
}

export class Scheduler {
  readonly #now: () => Date;
  readonly #leaseMs: number;
  readonly #maxAttempts: number;
  readonly #instance: string;
  readonly #log: (line: string) => void;
  readonly #byName: Map<string, Schedule>;
  #synced: Promise<void> | undefined;

  constructor(private readonly db: Database, readonly schedules: Schedule[], readonly jobs: ReadonlyMap<string, Job>, options: SchedulerOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#leaseMs = options.leaseMs ?? 10 * 60_000;
    this.#maxAttempts = options.maxAttempts ?? BACKOFF_MS.length + 1;
    this.#instance = options.instance ?? `${os.hostname()}:${process.pid}`;
    this.#log = options.log ?? (() => {});
    this.#byName = new Map(schedules.map((s) => [s.nome, s]));
  }

  schedule(nome: string): Schedule | undefined {
    return this.#byName.get(nome);
  }

  /** The file's schedules into the table: a new one gets its next due time, a changed cron a new one. */
  async sync(): Promise<void> {
    const now = this.#now();
    for (const s of this.schedules) {
      const next = nextDue(s.cron, now);
      await sql`INSERT INTO pianificazione (nome, cron, prossima) VALUES (${s.nome}, ${s.cron}, ${next})
        ON CONFLICT (nome) DO UPDATE SET cron = EXCLUDED.cron,
          prossima = CASE WHEN pianificazione.cron <> EXCLUDED.cron OR pianificazione.prossima IS NULL THEN EXCLUDED.prossima ELSE pianificazione.prossima END`.execute(this.db);
    }
  }

  /** The file's schedules in the table once, before the first use (not at build: an app starts without its database). */
  private ready(): Promise<void> {
    this.#synced ??= this.sync().catch((error: unknown) => {
      this.#synced = undefined;
      throw error;
    });
    return this.#synced;
  }

  /** One look at the clock: the due schedules become runs, interrupted and failed runs are taken up, all of them run. */
  async tick(): Promise<RunRecord[]> {
    await this.ready();
    const now = this.#now();
    const claimed = [...(await this.claimDue(now)), ...(await this.claimOpen(now))];
    for (const run of claimed) await this.execute(run);
    return claimed;
  }

  /** 'Esegui ora': a run due now, outside the schedule's times, executed here at once. */
  async runNow(nome: string): Promise<{ id: number; stato: string; esito: string | null; errore: string | null }> {
    await this.ready();
    const now = this.#now();
    const inserted = await sql<{ id: string }>`INSERT INTO pianificazione_esecuzione (nome, dovuta, manuale, stato, istanza, iniziata, lease_fino)
      VALUES (${nome}, ${now}, true, 'in_corso', ${this.#instance}, ${now}, ${new Date(now.getTime() + this.#leaseMs)})
      ON CONFLICT (nome, dovuta) DO NOTHING RETURNING id`.execute(this.db);
    const id = inserted.rows[0] ? Number(inserted.rows[0].id) : undefined;
    if (id === undefined) throw new Error('Esecuzione già in corso per questo istante: riprova.');
    await this.execute({ id, nome, dovuta: now, tentativo: 1 });
    const row = await sql<{ id: string; stato: string; esito: string | null; errore: string | null }>`
      SELECT id, stato, esito, errore FROM pianificazione_esecuzione WHERE id = ${id}`.execute(this.db);
    return { ...row.rows[0]!, id };
  }

  /**
   * Turns a schedule on or off (over what the file says); a schedule turned on is next due from now. The switch is an
   * entry of the history (who turned the daily notices off, and when), in the same transaction.
   */
  async setActive(nome: string, attiva: boolean): Promise<void> {
    await this.ready();
    const s = this.#byName.get(nome)!;
    await this.db.transaction().execute(async (trx) => {
      const before = (await sql<{ attiva: boolean | null }>`SELECT attiva FROM pianificazione WHERE nome = ${nome} FOR UPDATE`.execute(trx)).rows[0];
      const was = before?.attiva ?? s.attiva;
      await sql`UPDATE pianificazione SET attiva = ${attiva}, prossima = CASE WHEN ${attiva} THEN ${nextDue(s.cron, this.#now())}::timestamptz ELSE prossima END,
        updated_at = now() WHERE nome = ${nome}`.execute(trx);
      if (was !== attiva) await registraEvento(trx, 'pianificazione', null, `Pianificazione ${attiva ? 'attivata' : 'disattivata'}: ${s.titolo} (${nome})`, { attiva: [was, attiva] });
    });
  }

  /** Every schedule with its state, for the screen. */
  async list() {
    await this.ready();
    const rows = await sql<{ nome: string; attiva: boolean | null; prossima: Date | null; ultima: Date | null; esito: string | null; errore: string | null; durata_ms: number | null }>`
      SELECT nome, attiva, prossima, ultima, esito, errore, durata_ms FROM pianificazione`.execute(this.db);
    const state = new Map(rows.rows.map((r) => [r.nome, r]));
    return this.schedules.map((s) => {
      const r = state.get(s.nome);
      const attiva = r?.attiva ?? s.attiva;
      return {
        nome: s.nome, titolo: s.titolo, descrizione: s.descrizione, cron: s.cron, attiva,
        prossima: attiva && r?.prossima ? r.prossima.toISOString() : null, ultima: r?.ultima?.toISOString() ?? null,
        esito: r?.esito ?? null, errore: r?.errore ?? null, durata_ms: r?.durata_ms ?? null,
      };
    });
  }

  /** The last runs of a schedule, newest first. */
  async runs(nome: string, limit = 20) {
    const rows = await sql<{ id: string; dovuta: Date; manuale: boolean; stato: string; tentativo: number; iniziata: Date | null; finita: Date | null; esito: string | null; errore: string | null }>`
      SELECT id, dovuta, manuale, stato, tentativo, iniziata, finita, esito, errore FROM pianificazione_esecuzione
      WHERE nome = ${nome} ORDER BY dovuta DESC, id DESC LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({ ...r, id: Number(r.id), dovuta: r.dovuta.toISOString(), iniziata: r.iniziata?.toISOString() ?? null, finita: r.finita?.toISOString() ?? null }));
  }

  private async claimDue(now: Date): Promise<RunRecord[]> {
    const names = this.schedules.map((s) => s.nome);
    if (!names.length) return [];
    return this.db.transaction().execute(async (trx) => {
      // Another instance holding a schedule's row is claiming it: skipped here, not waited for.
      const due = await sql<{ nome: string; prossima: Date; attiva: boolean | null }>`
        SELECT nome, prossima, attiva FROM pianificazione WHERE nome = ANY(${names}) AND prossima <= ${now} FOR UPDATE SKIP LOCKED`.execute(trx);
      const claimed: RunRecord[] = [];
      for (const row of due.rows) {
        const s = this.#byName.get(row.nome)!;
        // Several due times missed while no instance ran: one run catches up, the next is due from now.
        await sql`UPDATE pianificazione SET prossima = ${nextDue(s.cron, now)}, updated_at = now() WHERE nome = ${row.nome}`.execute(trx);
        if (!(row.attiva ?? s.attiva)) continue;
        const run = await sql<{ id: string }>`INSERT INTO pianificazione_esecuzione (nome, dovuta, stato, istanza, iniziata, lease_fino)
          VALUES (${row.nome}, ${row.prossima}, 'in_corso', ${this.#instance}, ${now}, ${new Date(now.getTime() + this.#leaseMs)})
          ON CONFLICT (nome, dovuta) DO NOTHING RETURNING id`.execute(trx);
        if (run.rows[0]) claimed.push({ id: Number(run.rows[0].id), nome: row.nome, dovuta: row.prossima, tentativo: 1 });
      }
      return claimed;
    });
  }

  /** Runs whose instance stopped mid-way (lease over, row not locked by a live transaction) and failed runs due again. */
  private async claimOpen(now: Date): Promise<RunRecord[]> {
    const taken = await sql<{ id: string; nome: string; dovuta: Date; tentativo: number }>`
      UPDATE pianificazione_esecuzione e SET stato = 'in_corso', tentativo = e.tentativo + 1, istanza = ${this.#instance}, iniziata = ${now},
        lease_fino = ${new Date(now.getTime() + this.#leaseMs)}, riprova_il = NULL
      WHERE e.id IN (SELECT id FROM pianificazione_esecuzione
                     WHERE (stato = 'in_corso' AND lease_fino < ${now}) OR (stato = 'fallita' AND riprova_il <= ${now})
                     ORDER BY dovuta LIMIT 20 FOR UPDATE SKIP LOCKED)
      RETURNING e.id, e.nome, e.dovuta, e.tentativo`.execute(this.db);
    return taken.rows.filter((r) => this.#byName.has(r.nome)).map((r) => ({ id: Number(r.id), nome: r.nome, dovuta: r.dovuta, tentativo: r.tentativo }));
  }

  private async execute(run: RunRecord): Promise<void> {
    const s = this.#byName.get(run.nome);
    const job = s ? this.jobs.get(s.lavoro) : undefined;
    const started = performance.now();
    try {
      if (!job) throw new Error(`lavoro sconosciuto per ${run.nome}`);
      const esito = await this.db.transaction().execute(async (trx) => {
        // Still this instance's run: its row stays locked while the job works, so no other instance takes it up.
        const mine = await sql`SELECT 1 FROM pianificazione_esecuzione WHERE id = ${run.id} AND stato = 'in_corso' AND istanza = ${this.#instance}
          AND tentativo = ${run.tentativo} FOR UPDATE`.execute(trx);
        if (!mine.rows.length) return undefined;
        const now = this.#now();
        const outcome = await comeSistema(() => job({ trx, dovuta: run.dovuta, now }));
        const ms = Math.round(performance.now() - started);
        await sql`UPDATE pianificazione_esecuzione SET stato = 'riuscita', finita = ${this.#now()}, esito = ${outcome}, errore = NULL WHERE id = ${run.id}`.execute(trx);
        await sql`UPDATE pianificazione SET ultima = ${this.#now()}, esito = ${outcome}, errore = NULL, durata_ms = ${ms}, updated_at = now() WHERE nome = ${run.nome}`.execute(trx);
        return outcome;
      });
      if (esito !== undefined) this.#log(`pianificazione ${run.nome}: ${esito}`);
    } catch (error) {
      // The job's writes rolled back with its transaction; the failure is kept, and retried while attempts remain.
      const message = (error as Error).message ?? String(error);
      const retry = run.tentativo < this.#maxAttempts;
      const pause = BACKOFF_MS[Math.min(run.tentativo - 1, BACKOFF_MS.length - 1)]!;
      const now = this.#now();
      await sql`UPDATE pianificazione_esecuzione SET stato = ${retry ? 'fallita' : 'abbandonata'}, finita = ${now}, errore = ${message},
        riprova_il = ${retry ? new Date(now.getTime() + pause) : null} WHERE id = ${run.id} AND istanza = ${this.#instance}`.execute(this.db);
      await sql`UPDATE pianificazione SET ultima = ${now}, esito = 'errore', errore = ${message}, durata_ms = ${Math.round(performance.now() - started)},
        updated_at = now() WHERE nome = ${run.nome}`.execute(this.db);
      this.#log(`pianificazione ${run.nome} fallita (tentativo ${run.tentativo}): ${message}`);
    }
  }

  /** Ticks every `everyMs` until the returned stop is called; a tick still running is not overlapped. */
  start(everyMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.tick().catch((error: Error) => this.#log(`scheduler: ${error.message}`)).finally(() => { running = false; });
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
