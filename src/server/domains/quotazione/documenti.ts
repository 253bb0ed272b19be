// Quotation documents beyond the generic file routes: the contract generated at the request to issue, at the issue (and
// at each regeneration), each version with its own code, and the signature request of spec 001 §4 whose completion
// concludes the quotation ('Firma Manuale' takes back only the contract to sign, signed).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import multipart from '@fastify/multipart';
import { requirePermission } from '../../auth/guards.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { HttpError, invalid, notFoundFor } from '../../errors.ts';
import { listDocuments, mediaTransaction, type MediaRecord, type MediaStore } from '../../media/store.ts';
import { downloadPattern, presentMedia } from '../../media/routes.ts';
import type { Database } from '../../db/connection.ts';
import { generaContratto, type QuotazionePerContratto } from '../../adapters/auto-storiche/contratto.ts';
import {
  checkModalita, completeManualSignature, latestRequest, updateDraft, presentRequest, refreshRequest, requestHistory, sendSignatureRequest,
} from '../../firma/service.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';

const RESOURCE = 'quotazione';
export const CONTRATTO = 'contratto_itas';
const FIRMATI = 'contratto_firmato';
/** Statuses (ids) from which the issue documents exist: awaiting issue onwards. */
const CON_DOCUMENTI = [7, 8, 9, 10, 11];
const IN_ATTESA_DI_FIRMA = 9;

/** The provider's callback and the poller act for nobody: this user may conclude any quotation. */
const SERVIZIO_FIRMA: AuthUser = {
  id: 0, email: '', name: 'Servizio di firma', collaboratore_id: null, tokenId: 0,
  permissions: ['emettere_polizza_auto_storica', 'show_tutte_quotazioni', 'show_sue_quotazioni'], roles: [],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;

/** A new version of the contract in contratto_itas, with its own code (see generaContratto); earlier versions stay. */
async function storeContratto(media: MediaStore, trx: Trx, record: Record<string, unknown>, user?: { id: number; name: string }): Promise<void> {
  const id = Number(record.id);
  const versione = (await listDocuments(trx, { resource: RESOURCE, id }, { collection: CONTRATTO })).length + 1;
  const codice = `AS-${id}-V${versione}-${randomBytes(4).toString('hex').toUpperCase()}`;
  const pdf = await generaContratto(record as unknown as QuotazionePerContratto, versione, new Date(), codice);
  await media.storeDocument(trx, {
    owner: { resource: RESOURCE, id }, collection: CONTRATTO,
    name: `Contratto quotazione ${id} v${versione}.pdf`, fileName: `contratto-${id}-v${versione}.pdf`,
    source: pdf, types: ['pdf'], maxBytes: 50 * 1024 * 1024, user: user ?? { id: 0, name: 'Sistema' }, meta: { versione, generato: true, codice },
  });
}

/**
 * The contract of the issued policy, stored in the (or the regeneration's) transaction from the quotation as it
 * now is (its policy number included): whoever issued, the quotation waiting for its signature has a contract to sign.
 */
export async function storeIssuedContract(media: MediaStore, trx: Trx, id: number, user?: { id: number; name: string }): Promise<void> {
  const record = (await sql<Record<string, unknown>>`SELECT * FROM quotazione WHERE id = ${id}`.execute(trx)).rows[0];
  if (record) await storeContratto(media, trx, record, user);
}

/** The contract to sign: the latest version of the generated contract. */
async function contractToSign(db: Database | Trx, id: number): Promise<MediaRecord | undefined> {
  return (await listDocuments(db, { resource: RESOURCE, id }, { collection: CONTRATTO })).at(-1);
}

const CODICE = /AS-\d+-V\d+-[0-9A-F]{8}/g;

/**
 * 'Firma Manuale' takes back the contract to sign, signed: a PDF carrying that contract's code (its keywords survive the
 * customer's signing tools and a re-save), not the unsigned file itself, not another version or another quotation's
 * contract. Refused at the file field, in the upload's transaction: nothing is kept.
 */
async function checkSignedContract(trx: Trx, id: number, stored: MediaRecord, read: () => Promise<Buffer>): Promise<void> {
  const versioni = await listDocuments(trx, { resource: RESOURCE, id }, { collection: CONTRATTO });
  const ultimo = versioni.at(-1);
  if (!ultimo) throw invalid({ file: ['Nessun contratto da firmare: rigenera i documenti di emissione.'] });
  const codice = typeof ultimo.meta?.codice === 'string' ? ultimo.meta.codice : undefined;
  const versione = Number(ultimo.meta?.versione ?? versioni.length);
  if (!codice) throw invalid({ file: ['Il contratto da firmare non ha un codice di riscontro: rigenera i documenti di emissione e fai firmare la nuova versione.'] });
  if (stored.sha256 === ultimo.sha256) throw invalid({ file: ['Il file è il contratto non firmato: carica la copia firmata dal contraente.'] });
  const bytes = await read();
  let testo = '';
  try {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    testo = [doc.getKeywords(), doc.getSubject(), doc.getTitle()].filter(Boolean).join(' ');
  } catch {
    // An unreadable PDF carries no code: refused below like any other file.
  }
  const trovati = new Set(testo.match(CODICE) ?? []);
  if (trovati.has(codice)) return;
  const altra = versioni.find((v) => typeof v.meta?.codice === 'string' && trovati.has(v.meta.codice));
  if (altra) throw invalid({ file: [`Il file è la versione ${String(altra.meta.versione)} del contratto: va firmata la versione ${versione} (codice ${codice}).`] });
  throw invalid({ file: [`Il file non è il contratto da firmare: carica il contratto scaricato da "Firma Manuale" (codice ${codice}), firmato dal contraente.`] });
}

function workflowOf(app: FastifyInstance): { repo: ResourceRepository; workflow: Workflow } {
  const def = app.ctx.definitions.resources.get(RESOURCE)!;
  const workflow = app.ctx.workflows.get(def.resource.workflow!.machine)!;
  return { repo: new ResourceRepository(def, app.ctx, undefined, workflow), workflow };
}

function parseId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, 'Quotazione non trovata.');
  return Number(raw);
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  // At the request to issue, the insurer (its sandbox here) returns the contract, stored with the new status.
  app.extensions.workflowAction('documentiEmissione', async (_params, ctx) => {
    await storeContratto(app.ctx.media, ctx.trx, ctx.record, ctx.user);
  });
  // confermaDoc and revisioneDoc judge the uploaded documents: each is marked, and there must be some to confirm.
  app.extensions.workflowAction('esitoDocumenti', async (params, ctx) => {
    const id = Number(ctx.record.id);
    const esito = params.esito === 'confermati' ? 'confermato' : 'da_rivedere';
    const caricati = (await listDocuments(ctx.trx, { resource: RESOURCE, id })).filter((m) => !m.meta?.generato && !m.collection_name.startsWith('contratto'));
    if (esito === 'confermato' && !caricati.length) throw invalid({ documenti: ['Nessun documento caricato: non ci sono documenti da confermare.'] });
    const stamp = { esito, il: new Date().toISOString(), da: ctx.user?.name ?? null, ...(ctx.note ? { nota: ctx.note } : {}) };
    await sql`UPDATE media SET meta = meta || ${JSON.stringify({ verifica: stamp })}::jsonb WHERE id = ANY(${caricati.map((m) => Number(m.id))}::bigint[])`.execute(ctx.trx);
  });
  app.extensions.routes('quotazione-documenti', async (app: FastifyInstance) => {
    const { repo, workflow } = workflowOf(app);
    const def = repo.def;
    const download = downloadPattern(def);

    // The signed PDF joins the documents; a quotation waiting for signature is concluded in the same transaction.
    app.extensions.signatureOwner(RESOURCE, {
      collection: FIRMATI,
      async onDone(trx, ownerId) {
        const rows = await sql<Record<string, unknown>>`SELECT * FROM quotazione WHERE id = ${ownerId} FOR UPDATE`.execute(trx);
        const record = rows.rows[0];
        if (!record) return;
        if (workflow.can(Number(record[workflow.statusField]), SERVIZIO_FIRMA, record, { type: 'FIRMA_COMPLETATA' })) {
          await repo.transitionWithin(trx, SERVIZIO_FIRMA, ownerId, { type: 'FIRMA_COMPLETATA', nota: 'Documenti firmati' });
        }
      },
    });

    app.post('/api/v1/goold/emissione/:id/rigenera-documenti-emissione', {
      preHandler: requirePermission('emettere_polizza_auto_storica|conferma_quotazione'),
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 12 } }, required: ['id'] } },
    }, async (request, reply) => {
      const id = parseId((request.params as { id: string }).id);
      await mediaTransaction(app.ctx.db, async (trx) => {
        const record = await repo.get(trx, request.user, id);
        await sql`SELECT 1 FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx);
        if (!CON_DOCUMENTI.includes(Number(record.stato_quotazione_id))) {
          throw new HttpError(409, `I documenti di emissione si generano dallo stato "In attesa di emissione" in poi (stato attuale: "${workflow.status(Number(record.stato_quotazione_id)).nome}").`);
        }
        await storeContratto(app.ctx.media, trx, record, request.user);
      });
      reply.code(201);
      return { message: 'Documenti di emissione rigenerati.', data: (await listDocuments(app.ctx.db, { resource: RESOURCE, id }, { collection: CONTRATTO })).map((m) => ({ id: Number(m.id), name: m.name, collection_name: m.collection_name, meta: m.meta })) };
    });

    const signatureAnswer = async (user: AuthUser, id: number, refresh: boolean) => {
      let latest = await latestRequest(app.ctx.db, { resource: RESOURCE, id });
      if (latest && refresh) latest = await refreshRequest(app.ctx, latest).catch(() => latest);
      const history = await requestHistory(app.ctx.db, { resource: RESOURCE, id });
      const model = await repo.get(app.ctx.db, user, id);
      // What 'Firma Manuale' offers to download and print: the contract to sign, with its code.
      const contratto = await contractToSign(app.ctx.db, id);
      return {
        last_signature_request: presentRequest(latest), history: history.map(presentRequest), model,
        contratto: contratto ? { ...presentMedia(download, contratto), versione: Number(contratto.meta?.versione ?? 0), codice: contratto.meta?.codice ?? null } : null,
      };
    };

    app.get('/api/v1/policies/:policyId/signature_request', {
      preHandler: requirePermission('show_sue_quotazioni'),
      schema: { params: { type: 'object', properties: { policyId: { type: 'string', maxLength: 12 } }, required: ['policyId'] } },
    }, async (request, reply) => {
      const id = parseId((request.params as { policyId: string }).policyId);
      await repo.get(app.ctx.db, request.user, id);
      reply.header('cache-control', 'no-store');
      // Reading asks the provider for news too: the box shows the signature as soon as it is done.
      return { data: await signatureAnswer(request.user, id, true) };
    });

    app.put('/api/v1/policies/:policyId/signature_request', {
      preHandler: requirePermission('emettere_polizza_auto_storica|conferma_quotazione'),
      schema: {
        params: { type: 'object', properties: { policyId: { type: 'string', maxLength: 12 } }, required: ['policyId'] },
        body: { type: 'object', properties: { email: { type: 'string', maxLength: 200 }, telefono: { type: 'string', maxLength: 30 } } },
      },
    }, async (request) => {
      const id = parseId((request.params as { policyId: string }).policyId);
      await repo.get(app.ctx.db, request.user, id);
      const body = (request.body ?? {}) as { email?: string; telefono?: string };
      if (body.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email.trim())) throw invalid({ email: ['Indirizzo email non valido.'] });
      await updateDraft(app.ctx.db, { resource: RESOURCE, id }, { email: body.email?.trim(), telefono: body.telefono === undefined ? undefined : body.telefono.trim() || null });
      return { message: 'Richiesta di firma aggiornata.', data: await signatureAnswer(request.user, id, false) };
    });

    app.post('/api/v1/policies/:policyId/signature_request/send', {
      preHandler: requirePermission('emettere_polizza_auto_storica|conferma_quotazione'),
      schema: {
        params: { type: 'object', properties: { policyId: { type: 'string', maxLength: 12 } }, required: ['policyId'] },
        body: {
          type: 'object',
          properties: {
            modalita: { type: 'string', maxLength: 20 }, mode: { type: 'string', maxLength: 20 },
            email: { type: 'string', maxLength: 200 }, telefono: { type: 'string', maxLength: 30 }, resend: { type: 'boolean' },
          },
        },
      },
    }, async (request) => {
      const id = parseId((request.params as { policyId: string }).policyId);
      const body = (request.body ?? {}) as { modalita?: string; mode?: string; email?: string; telefono?: string; resend?: boolean };
      const modalita = checkModalita(body.modalita ?? body.mode);
      const record = await repo.get(app.ctx.db, request.user, id);
      const email = (body.email ?? (record.email as string | null) ?? '').trim();
      const telefono = (body.telefono ?? (record.telefono as string | null) ?? '').trim() || null;
      const errors: Record<string, string[]> = {};
      if (!email) errors.email = ['Serve l\'email del contraente per la richiesta di firma.'];
      if (modalita === 'otp' && !telefono) errors.telefono = ['Per la firma OTP serve il telefono del contraente.'];
      if (Object.keys(errors).length) throw invalid(errors);
      const documenti = (await listDocuments(app.ctx.db, { resource: RESOURCE, id }))
        .filter((m) => m.collection_name === CONTRATTO || m.collection_name === 'contratto_uca');
      // The latest version of each contract is what gets signed.
      const latestOf = new Map<string, number>();
      for (const m of documenti) latestOf.set(m.collection_name, Number(m.id));
      if (!latestOf.size) throw invalid({ firma: ['Nessun contratto da firmare: rigenera i documenti di emissione.'] });
      const nome = (record.rsoc as string | null)?.trim() || `${record.nome ?? ''} ${record.cognome ?? ''}`.trim();
      await sendSignatureRequest(app.ctx, {
        owner: { resource: RESOURCE, id }, modalita, firmatario: { nome, email, telefono }, documenti: [...latestOf.values()],
        user: request.user, resend: body.resend === true,
        async lockOwner(trx) {
          const locked = await sql<{ stato_quotazione_id: number }>`SELECT stato_quotazione_id FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx);
          const stato = Number(locked.rows[0]?.stato_quotazione_id);
          if (!locked.rows[0]) throw notFoundFor(def);
          if (stato !== IN_ATTESA_DI_FIRMA) throw new HttpError(409, `La richiesta di firma si invia nello stato "In attesa di firma" (stato attuale: "${workflow.status(stato).nome}").`);
        },
      });
      return { message: 'Richiesta di firma inviata.', data: await signatureAnswer(request.user, id, false) };
    });

    // 'Firma Manuale': the contract signed on paper, uploaded by staff (multipart, the PDF in "file"), completes the request
    // and concludes the quotation as an OTP signature does.
    await app.register(async (uploads) => {
      // preservePath: the name check must see a traversal name as sent.
      await uploads.register(multipart, { preservePath: true, limits: { fileSize: 1024 * 1024 * 1024, files: 1, fields: 10, parts: 12, fieldSize: 1000 } } as Parameters<typeof multipart>[1]);
      uploads.post('/api/v1/policies/:policyId/signature_request/signed', {
        preHandler: requirePermission('emettere_polizza_auto_storica|conferma_quotazione'),
        schema: { params: { type: 'object', properties: { policyId: { type: 'string', maxLength: 12 } }, required: ['policyId'] } },
      }, async (request, reply) => {
        const id = parseId((request.params as { policyId: string }).policyId);
        const record = await repo.get(app.ctx.db, request.user, id);
        const contratti = new Map<string, number>();
        for (const m of await listDocuments(app.ctx.db, { resource: RESOURCE, id })) {
          if (m.collection_name === CONTRATTO || m.collection_name === 'contratto_uca') contratti.set(m.collection_name, Number(m.id));
        }
        const nome = (record.rsoc as string | null)?.trim() || `${record.nome ?? ''} ${record.cognome ?? ''}`.trim();
        await completeManualSignature(app.ctx, request, {
          owner: { resource: RESOURCE, id },
          firmatario: { nome, email: (record.email as string | null) ?? null, telefono: (record.telefono as string | null) ?? null },
          documenti: [...contratti.values()],
          user: request.user,
          checkSigned: (trx, stored, read) => checkSignedContract(trx, id, stored, read),
          async lockOwner(trx) {
            const locked = await sql<{ stato_quotazione_id: number }>`SELECT stato_quotazione_id FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx);
            if (!locked.rows[0]) throw notFoundFor(def);
            const stato = Number(locked.rows[0].stato_quotazione_id);
            if (stato !== IN_ATTESA_DI_FIRMA) throw new HttpError(409, `Il contratto firmato si carica nello stato "In attesa di firma" (stato attuale: "${workflow.status(stato).nome}").`);
          },
        });
        reply.code(201);
        return { message: 'Contratto firmato caricato: documenti firmati.', data: await signatureAnswer(request.user, id, false) };
      });
    });
  });
}
