// Signature requests of a record's documents: the latest request and its history, sent exactly once per attempt,
// brought forward by the provider's callback, by a poller or on reading; "done" stores the signed PDF and lets
// the owner's domain move the record on, in one transaction.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { MigrationStatement } from '../extensions.ts';
import { HttpError, invalid } from '../errors.ts';
import { FirmaError, type FirmaProvider, type ModalitaFirma, type StatoFirma } from '../adapters/firma/types.ts';
import type { FastifyRequest } from 'fastify';
import { mediaTransaction, findDocument, type MediaRecord, type MediaStore } from '../media/store.ts';
import { acceptUpload } from '../media/routes.ts';
import type { MediaCollectionConfig } from '../../shared/definitions/types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;

/** Its tables, created by the engine's migration step (db/domain-migrations.ts). */
export const FIRMA_TABLES: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS firma_richiesta (
     id bigserial PRIMARY KEY,
     owner_resource text NOT NULL,
     owner_id integer NOT NULL,
     chiave text NOT NULL UNIQUE,
     provider text NOT NULL,
     provider_id text,
     modalita text NOT NULL,
     stato text NOT NULL,
     firmatario text,
     email text,
     telefono text,
     documenti jsonb NOT NULL DEFAULT '[]',
     errori jsonb NOT NULL DEFAULT '[]',
     messaggio text,
     storico jsonb NOT NULL DEFAULT '[]',
     signed_media_id bigint,
     created_by_name text,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS firma_richiesta_owner ON firma_richiesta (owner_resource, owner_id, id)`,
  `CREATE INDEX IF NOT EXISTS firma_richiesta_aperte ON firma_richiesta (id) WHERE stato IN ('sending', 'draft', 'ongoing')`,
];

/** 'sending' = stored before the call, the answer not yet known (a timeout); 'error' = the provider refused it. */
export type StatoRichiesta = StatoFirma | 'sending' | 'error';

export interface SignatureRequestRow {
  id: number;
  owner_resource: string;
  owner_id: number;
  chiave: string;
  provider: string;
  provider_id: string | null;
  modalita: ModalitaFirma;
  stato: StatoRichiesta;
  firmatario: string | null;
  email: string | null;
  telefono: string | null;
  documenti: number[];
  errori: string[];
  messaggio: string | null;
  storico: Array<{ stato: StatoRichiesta; at: string; nota?: string }>;
  signed_media_id: number | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface SignatureOwner {
  /** Collection that receives the signed PDF. */
  collection: string;
  /** Runs in the transaction that stores the signed PDF (e.g. the workflow event that concludes the quotation). */
  onDone(trx: Trx, ownerId: number, request: SignatureRequestRow): Promise<void>;
}

/** The app's database, its domains' signature owners (registered with app.extensions.signatureOwner), its file store and provider. */
export interface FirmaContext {
  db: Database;
  extensions: { ownerOf(resource: string): SignatureOwner | undefined };
  media: MediaStore;
  firma: FirmaProvider;
}

const OPEN: StatoRichiesta[] = ['sending', 'draft', 'ongoing'];

export async function latestRequest(db: Database | Trx, owner: { resource: string; id: number }): Promise<SignatureRequestRow | undefined> {
  const rows = await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id} ORDER BY id DESC LIMIT 1`.execute(db);
  return rows.rows[0];
}

export async function requestHistory(db: Database, owner: { resource: string; id: number }): Promise<SignatureRequestRow[]> {
  const rows = await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id} ORDER BY id DESC`.execute(db);
  return rows.rows;
}

async function setState(db: Database | Trx, id: number, stato: StatoRichiesta, extra: { provider_id?: string; errori?: string[]; messaggio?: string | null; nota?: string } = {}) {
  const entry = JSON.stringify([{ stato, at: new Date().toISOString(), ...(extra.nota ? { nota: extra.nota } : {}) }]);
  const rows = await sql<SignatureRequestRow>`
    UPDATE firma_richiesta SET stato = ${stato}, updated_at = now(),
      provider_id = coalesce(${extra.provider_id ?? null}, provider_id),
      errori = coalesce(${extra.errori ? JSON.stringify(extra.errori) : null}::jsonb, errori),
      messaggio = ${extra.messaggio === undefined ? sql`messaggio` : extra.messaggio},
      storico = CASE WHEN stato = ${stato} THEN storico ELSE storico || ${entry}::jsonb END
    WHERE id = ${id} RETURNING *`.execute(db);
  return rows.rows[0]!;
}

export interface SendInput {
  owner: { resource: string; id: number };
  modalita: ModalitaFirma;
  firmatario: { nome: string; email: string; telefono: string | null };
  documenti: number[];
  user: { name: string };
  /** Lock and check the owner (scope, status) inside the transaction that records the request. */
  lockOwner(trx: Trx): Promise<void>;
  /** Resend: a new attempt even when the latest request is a draft. */
  resend?: boolean;
}

/**
 * One attempt = one key, stored before the provider is called. Double clicks and concurrent calls serialise on
 * the owner's row and find the open attempt; a timeout leaves it 'sending' and the retry reuses the key.
 */
export async function sendSignatureRequest(ctx: FirmaContext, input: SendInput): Promise<SignatureRequestRow> {
  const { db } = ctx;
  const stored = await db.transaction().execute(async (trx) => {
    await input.lockOwner(trx);
    const latest = await latestRequest(trx, input.owner);
    if (latest && (latest.stato === 'sending' || latest.stato === 'ongoing' || (latest.stato === 'draft' && !input.resend))) return { row: latest, fresh: false };
    if (latest?.stato === 'done') throw new HttpError(409, 'I documenti sono già stati firmati.');
    // A resent draft is replaced by the new attempt; its history keeps it.
    if (latest?.stato === 'draft') await setState(trx, latest.id, 'expired', { messaggio: 'Sostituita da un nuovo invio.', nota: 'Sostituita da un nuovo invio.' });
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM firma_richiesta WHERE owner_resource = ${input.owner.resource} AND owner_id = ${input.owner.id}`.execute(trx);
    const chiave = `${input.owner.resource}:${input.owner.id}:${count.rows[0]!.n + 1}`;
    const rows = await sql<SignatureRequestRow>`
      INSERT INTO firma_richiesta (owner_resource, owner_id, chiave, provider, modalita, stato, firmatario, email, telefono, documenti, storico, created_by_name)
      VALUES (${input.owner.resource}, ${input.owner.id}, ${chiave}, ${ctx.firma.nome}, ${input.modalita}, 'sending', ${input.firmatario.nome}, ${input.firmatario.email},
        ${input.firmatario.telefono}, ${JSON.stringify(input.documenti)}::jsonb, ${JSON.stringify([{ stato: 'sending', at: new Date().toISOString() }])}::jsonb, ${input.user.name})
      RETURNING *`.execute(trx);
    return { row: rows.rows[0]!, fresh: true };
  });
  if (!stored.fresh && stored.row.stato !== 'sending') return stored.row;
  return deliver(ctx, stored.row);
}

/** Calls the provider for a 'sending' attempt (again, with the same key, after a timeout). */
async function deliver(ctx: FirmaContext, row: SignatureRequestRow): Promise<SignatureRequestRow> {
  const { db } = ctx;
  const nome = row.firmatario ?? row.email ?? '';
  const documenti = [];
  for (const id of row.documenti) {
    const m = await findDocument(db, id);
    if (m) documenti.push({ nome: m.name, mime: m.mime_type, contenuto: await ctx.media.readDocument(db, id) });
  }
  try {
    const esito = await ctx.firma.invia({ chiave: row.chiave, modalita: row.modalita, firmatario: { nome, email: row.email ?? '', telefono: row.telefono }, documenti });
    const updated = await setState(db, row.id, esito.stato, { provider_id: esito.id, messaggio: null, errori: [] });
    return esito.stato === 'done' ? complete(ctx, updated) : updated;
  } catch (error) {
    if (!(error instanceof FirmaError)) throw error;
    if (error.timeout) {
      await setState(db, row.id, 'sending', { messaggio: error.message });
      throw new HttpError(504, `${error.message} La richiesta verrà verificata di nuovo.`, { firma: [error.message] });
    }
    await setState(db, row.id, 'error', { errori: error.errori, messaggio: error.message });
    throw new HttpError(422, error.message, { firma: error.errori.length ? error.errori : [error.message] });
  }
}

/** Asks the provider for news about an open request; done => signed PDF stored and owner moved on, once. */
export async function refreshRequest(ctx: FirmaContext, row: SignatureRequestRow): Promise<SignatureRequestRow> {
  const { db } = ctx;
  if (!OPEN.includes(row.stato)) return row;
  if (row.stato === 'sending' || !row.provider_id) {
    try {
      return await deliver(ctx, row);
    } catch (error) {
      if (error instanceof HttpError) return (await latestById(db, row.id))!;
      throw error;
    }
  }
  const esito = await ctx.firma.stato(row.provider_id);
  if (esito.stato === row.stato) return row;
  if (esito.stato === 'done') return complete(ctx, row);
  return setState(db, row.id, esito.stato, { messaggio: esito.motivo ?? null });
}

async function latestById(db: Database | Trx, id: number): Promise<SignatureRequestRow | undefined> {
  return (await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE id = ${id}`.execute(db)).rows[0];
}

/** Stores the signed PDF and runs the owner's completion, exactly once even with callback and poller racing. */
async function complete(ctx: FirmaContext, row: SignatureRequestRow): Promise<SignatureRequestRow> {
  const { db } = ctx;
  const owner = ctx.extensions.ownerOf(row.owner_resource);
  if (!owner) throw new Error(`no signature owner for ${row.owner_resource}`);
  const pdf = await ctx.firma.documentoFirmato(row.provider_id!);
  return mediaTransaction(db, async (trx) => {
    const locked = (await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE id = ${row.id} FOR UPDATE`.execute(trx)).rows[0]!;
    if (locked.stato === 'done') return locked;
    const media = await ctx.media.storeDocument(trx, {
      owner: { resource: row.owner_resource, id: row.owner_id },
      collection: owner.collection,
      name: `Documenti firmati ${row.owner_id}.pdf`,
      fileName: `documenti-firmati-${row.owner_id}-${row.id}.pdf`,
      source: pdf,
      types: ['pdf'],
      maxBytes: 200 * 1024 * 1024,
      user: { id: 0, name: 'Servizio di firma' },
      meta: { firma_richiesta_id: row.id, provider_id: row.provider_id },
    });
    await sql`UPDATE firma_richiesta SET signed_media_id = ${media.id} WHERE id = ${row.id}`.execute(trx);
    const done = await setState(trx, row.id, 'done', { messaggio: null });
    await owner.onDone(trx, row.owner_id, done);
    return done;
  });
}

export interface ManualSignatureInput {
  owner: { resource: string; id: number };
  firmatario: { nome: string; email: string | null; telefono: string | null };
  /** The documents printed for the customer (the contracts), recorded with the request. */
  documenti: number[];
  user: { id: number; name: string };
  /** Lock and check the owner (scope, status) inside the upload's transaction. */
  lockOwner(trx: Trx): Promise<void>;
  /**
   * The owner's proof that the upload is its document signed, not any PDF (e.g. the contract's code): throws a 422 at
   * the file field, in the upload's transaction, so a refused copy leaves no file and the request as it was.
   */
  checkSigned(trx: Trx, stored: MediaRecord, read: () => Promise<Buffer>): Promise<void>;
}

/**
 * 'Firma Manuale' (spec 001 §3 'Signature request', §4): the customer signs the printed contract on paper and staff upload
 * the signed copy. The upload (a PDF, checked from its content, that the owner recognises as its document signed) completes the open manual request, or a new one made
 * for it, exactly as a provider's 'done' does: signed PDF stored, request done, owner moved on, in one transaction.
 */
export async function completeManualSignature(ctx: FirmaContext, request: FastifyRequest, input: ManualSignatureInput): Promise<SignatureRequestRow> {
  const owner = ctx.extensions.ownerOf(input.owner.resource);
  if (!owner) throw new Error(`no signature owner for ${input.owner.resource}`);
  const collection: MediaCollectionConfig = { title: 'Contratto firmato', types: ['pdf'], maxSizeMb: 25 };
  let open: SignatureRequestRow | undefined;
  let done: SignatureRequestRow | undefined;
  await acceptUpload(ctx, request, {
    audience: 'staff',
    user: input.user,
    collections: new Map([[owner.collection, collection]]),
    fields: { id: String(input.owner.id), collection: owner.collection },
    async resolve(trx) {
      await input.lockOwner(trx);
      const latest = await latestRequest(trx, input.owner);
      if (latest?.stato === 'done') throw new HttpError(409, 'I documenti sono già stati firmati.');
      if (latest && OPEN.includes(latest.stato) && latest.modalita !== 'manual') {
        throw new HttpError(409, 'È in corso una richiesta di firma OTP: il contratto firmato a mano si carica con la modalità Firma Manuale.');
      }
      open = latest && OPEN.includes(latest.stato) ? latest : undefined;
      return { owner: input.owner, collection, collectionName: owner.collection };
    },
    async afterStore(trx, stored) {
      await input.checkSigned(trx, stored, () => ctx.media.readDocument(trx as unknown as Database, Number(stored.id)));
      let row = open;
      if (!row) {
        // Paper needs no provider: the request is recorded here, already with its signed copy.
        const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM firma_richiesta WHERE owner_resource = ${input.owner.resource} AND owner_id = ${input.owner.id}`.execute(trx);
        row = (await sql<SignatureRequestRow>`
          INSERT INTO firma_richiesta (owner_resource, owner_id, chiave, provider, modalita, stato, firmatario, email, telefono, documenti, storico, created_by_name)
          VALUES (${input.owner.resource}, ${input.owner.id}, ${`${input.owner.resource}:${input.owner.id}:${count.rows[0]!.n + 1}`}, 'carta', 'manual', 'draft',
            ${input.firmatario.nome}, ${input.firmatario.email}, ${input.firmatario.telefono}, ${JSON.stringify(input.documenti)}::jsonb,
            ${JSON.stringify([{ stato: 'draft', at: new Date().toISOString() }])}::jsonb, ${input.user.name})
          RETURNING *`.execute(trx)).rows[0]!;
      }
      await sql`UPDATE firma_richiesta SET signed_media_id = ${stored.id} WHERE id = ${row.id}`.execute(trx);
      done = await setState(trx, row.id, 'done', { messaggio: null, nota: `Contratto firmato a mano caricato da ${input.user.name}.` });
      await owner.onDone(trx, input.owner.id, done);
    },
  });
  return done!;
}

/** Callback of the provider: the request by its provider id. */
export async function onCallback(ctx: FirmaContext, providerId: string): Promise<SignatureRequestRow | undefined> {
  const { db } = ctx;
  const rows = await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE provider_id = ${providerId} ORDER BY id DESC LIMIT 1`.execute(db);
  const row = rows.rows[0];
  return row ? refreshRequest(ctx, row) : undefined;
}

/** One round of the poller: every open request, oldest first. */
export async function pollOpenRequests(ctx: FirmaContext, limit = 50): Promise<number> {
  const { db } = ctx;
  const rows = await sql<SignatureRequestRow>`SELECT * FROM firma_richiesta WHERE stato IN ('sending', 'draft', 'ongoing') ORDER BY id LIMIT ${limit}`.execute(db);
  let changed = 0;
  for (const row of rows.rows) {
    const after = await refreshRequest(ctx, row).catch(() => row);
    if (after.stato !== row.stato) changed++;
  }
  return changed;
}

/** presentRequest's answer (null: no request yet), for the response schemas that carry it. */
export const SIGNATURE_REQUEST_SCHEMA = {
  type: ['object', 'null'], additionalProperties: true,
  description: 'ultima richiesta di firma: status (sending, draft, ongoing, done, refused, expired, error), modalita (otp, manual), errors, storico',
};

export function presentRequest(row: SignatureRequestRow | undefined) {
  if (!row) return null;
  return {
    id: Number(row.id), response: { status: row.stato, id: row.provider_id }, status: row.stato, modalita: row.modalita,
    email: row.email, telefono: row.telefono, documenti: row.documenti, errors: row.errori, message: row.messaggio,
    storico: row.storico, signed_media_id: row.signed_media_id === null ? null : Number(row.signed_media_id),
    created_by_name: row.created_by_name, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** 'Salva modifiche' of a draft: the signer's contacts used by the next resend. */
export async function updateDraft(db: Database, owner: { resource: string; id: number }, changes: { email?: string; telefono?: string | null }): Promise<SignatureRequestRow> {
  const latest = await latestRequest(db, owner);
  if (!latest || latest.stato !== 'draft') throw new HttpError(409, 'Solo una richiesta di firma in bozza si può modificare.');
  const rows = await sql<SignatureRequestRow>`
    UPDATE firma_richiesta SET email = coalesce(${changes.email ?? null}, email), telefono = ${changes.telefono === undefined ? sql`telefono` : changes.telefono}, updated_at = now()
    WHERE id = ${latest.id} AND stato = 'draft' RETURNING *`.execute(db);
  if (!rows.rows[0]) throw new HttpError(409, 'Solo una richiesta di firma in bozza si può modificare.');
  return rows.rows[0];
}

export function checkModalita(raw: unknown): ModalitaFirma {
  if (raw === 'otp' || raw === 'manual') return raw;
  throw invalid({ modalita: [raw ? 'Modalità di firma non valida: otp o manual.' : 'Scegli la modalità di firma.'] });
}
