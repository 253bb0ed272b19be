// E-mail outbox: rows written inside the business transaction, delivered afterwards by SMTP with retries.
import { sql, type Transaction } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../db/connection.ts';
import type { Config } from '../config.ts';

export const OUTBOX = 'email_outbox';
const BATCH = 20;
const MAX_BACKOFF_MINUTES = 60;

export interface OutgoingEmail {
  to: string;
  subject: string;
  body: string;
  resource?: string;
  recordId?: number;
  event?: string;
}

/** Queues an e-mail in the caller's transaction; answers its outbox id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function enqueueEmail(trx: Transaction<any> | Database, email: OutgoingEmail): Promise<number> {
  const row = await trx.insertInto(OUTBOX).values({
    destinatario: email.to,
    oggetto: email.subject,
    corpo: email.body,
    stato: 'in_attesa',
    tentativi: 0,
    prossimo_tentativo: sql`now()`,
    risorsa: email.resource ?? null,
    record_id: email.recordId ?? null,
    evento: email.event ?? null,
  }).returning('id').executeTakeFirstOrThrow();
  return Number((row as { id: number | string }).id);
}

export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

/** Sends what is due; a failure is recorded and retried later with a growing pause. Returns [sent, failed]. */
export async function deliverDue(db: Database, transport: MailTransport, from: string): Promise<[number, number]> {
  return db.transaction().execute((trx) => deliverDueWithin(trx, transport, from));
}

/**
 * The same in the caller's transaction (the scheduler's run, schedule consegna_posta): SKIP LOCKED lets several
 * instances share the outbox without sending twice; the rows' new state commits with the run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function deliverDueWithin(trx: Transaction<any>, transport: MailTransport, from: string): Promise<[number, number]> {
  let sent = 0;
  let failed = 0;
  const due = await sql<{ id: number; destinatario: string; oggetto: string; corpo: string; tentativi: number }>`
    SELECT id, destinatario, oggetto, corpo, tentativi FROM ${sql.table(OUTBOX)}
    WHERE stato = 'in_attesa' AND prossimo_tentativo <= now()
    ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`.execute(trx);
  for (const row of due.rows) {
    try {
      await transport.sendMail({ from, to: row.destinatario, subject: row.oggetto, text: row.corpo });
      await trx.updateTable(OUTBOX).set({ stato: 'inviata', inviata_il: sql`now()`, tentativi: row.tentativi + 1, ultimo_errore: null, updated_at: sql`now()` })
        .where('id', '=', row.id).execute();
      sent++;
    } catch (error) {
      const minutes = Math.min(2 ** row.tentativi, MAX_BACKOFF_MINUTES);
      await trx.updateTable(OUTBOX).set({
        tentativi: row.tentativi + 1,
        ultimo_errore: String((error as Error).message ?? error).slice(0, 500),
        prossimo_tentativo: sql`now() + make_interval(mins => ${minutes})`,
        updated_at: sql`now()`,
      }).where('id', '=', row.id).execute();
      failed++;
    }
  }
  return [sent, failed];
}

/** The scheduler's job: with SMTP_URL set, delivers what is due; without it the e-mails wait, readable by super_admin. */
export function deliveryJob(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  makeTransport: (url: string) => MailTransport = (url) => nodemailer.createTransport(url),
): (context: { trx: Transaction<any> }) => Promise<string> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let transport: MailTransport | undefined;
  return async ({ trx }) => {
    if (!config.SMTP_URL) return 'SMTP_URL non impostato: le e-mail restano nella posta in uscita.';
    transport ??= makeTransport(config.SMTP_URL);
    const [sent, failed] = await deliverDueWithin(trx, transport, config.MAIL_FROM);
    return `${sent} ${sent === 1 ? 'e-mail inviata' : 'e-mail inviate'}, ${failed} da ritentare.`;
  };
}
