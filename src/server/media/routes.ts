// Upload, download, list and delete of the files of every resource that declares "media" in its resource.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { sql, type Transaction } from 'kysely';
import type { MediaCollectionConfig, MediaConfig, MediaType, ResourceDefinition } from '../../shared/definitions/types.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { HttpError, forbidden, invalid, notFound, notFoundFor } from '../errors.ts';
import { parsePathId } from '../http/contract.ts';
import { ResourceRepository, type RepositoryDeps } from '../resources/repository.ts';
import type { Workflow } from '../../shared/workflow/machine.ts';
import type { AuthUser } from '../auth/user.ts';
import { countDocuments, findDocument, listDocuments, mediaTransaction, type MediaStore, type MediaRecord, type OwnerRef } from './store.ts';
import type { Database } from '../db/connection.ts';
import { isCalendarDate } from '../../shared/dates.ts';
import { formatMessages } from '../../shared/validation-messages.ts';

export const NO_FILE = 'Non hai specificato un file da caricare';
export const UPLOADED = 'Documento caricato con successo';
const MB = 1024 * 1024;

type Db = Database;
/** The app's database and the store its configuration chose (app.ctx). */
export type MediaContext = { db: Db; media: MediaStore };

/** Every collection of a resource, its own and its items' (model Veicolo: libretto). */
export function collectionsOf(media: MediaConfig, model?: string): Map<string, MediaCollectionConfig> {
  const all = new Map<string, MediaCollectionConfig>();
  if (!model || model === media.model) for (const [k, v] of Object.entries(media.collections)) all.set(k, v);
  for (const item of media.items ?? []) if (!model || model === item.model) for (const [k, v] of Object.entries(item.collections)) all.set(k, v);
  return all;
}

function parseId(raw: unknown): number | undefined {
  return typeof raw === 'string' && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : typeof raw === 'number' && Number.isInteger(raw) && raw > 0 ? raw : undefined;
}

/** Where a resource's files download: the first declared download path, or the default one under its API path. */
export function downloadPattern(def: ResourceDefinition): string {
  return def.resource.media?.paths?.download?.[0] ?? `${def.resource.api.path}/getDocument/:collection_name/:id`;
}

export function presentMedia(pattern: string, m: MediaRecord) {
  return {
    id: Number(m.id), name: m.name, collection_name: m.collection_name, file_name: m.file_name, mime_type: m.mime_type,
    size: Number(m.size), sha256: m.sha256, meta: m.meta, item_model: m.item_model, item_id: m.item_id,
    created_by_name: m.created_by_name, created_at: m.created_at,
    url: pattern.replace(':collection_name', encodeURIComponent(m.collection_name)).replace(':id', String(m.id)),
  };
}

/**
 * The directives of a stored file's answer: whatever a PDF's scripts or an HTML polyglot hold, opened from the app's
 * address it runs in a sandbox of no origin, loading nothing (the app previews files from memory, not from this URL).
 */
export const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

/**
 * A stored file as the answer: its type, size and name, always as an attachment, never sniffed, sandboxed, streamed.
 * An uploaded file is not trusted content: shown inline from the app's origin, a PDF with JavaScript or a PDF/HTML
 * polyglot would run as the app. The screens preview it from the bytes they fetched (a blob of the checked type).
 */
export async function sendDocument(reply: FastifyReply, { db, media }: MediaContext, m: MediaRecord) {
  const ascii = m.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply.header('content-type', m.mime_type)
    .header('content-length', String(m.size))
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(m.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CSP)
    .header('cache-control', 'private, no-store');
  return reply.send(await media.openDocument(db, Number(m.id)));
}

/** Access to a resource's records for its files: the same permission, row scope and workflow as the record. */
export class MediaOwner {
  readonly repo: ResourceRepository;
  constructor(readonly def: ResourceDefinition, deps: RepositoryDeps, readonly workflow?: Workflow) {
    this.repo = new ResourceRepository(def, deps, undefined, workflow);
  }

  get media(): MediaConfig {
    return this.def.resource.media!;
  }

  /** The record as the user may see it (404 out of scope), locked when files are about to change. */
  async record(db: Db, user: AuthUser, id: number, lock = false): Promise<Record<string, unknown>> {
    const record = await this.repo.get(db, user, id);
    if (lock) await sql`SELECT 1 FROM ${sql.table(this.def.name)} WHERE id = ${id} FOR UPDATE`.execute(db);
    return record;
  }

  mayRead(user: AuthUser): boolean {
    return hasPermission(this.media.readPermission ?? this.def.resource.permissions.read, user);
  }

  /** Whoever may edit the record, in a status whose machine takes the event (upload or delete). */
  assertMayChange(user: AuthUser, record: Record<string, unknown>, kind: 'upload' | 'delete'): void {
    if (!hasPermission(this.def.resource.permissions.update, user)) throw forbidden();
    const event = this.media.events?.[kind];
    if (!event || !this.workflow) return;
    const status = Number(record[this.workflow.statusField]);
    if (!this.workflow.can(status, user, record, { type: event })) {
      const label = this.workflow.definition.meta.events[event]?.label ?? event;
      throw new HttpError(409, `Operazione non consentita nello stato "${this.workflow.status(status).nome}": ${label.toLowerCase()}.`, undefined, undefined, 'WORKFLOW_REFUSED');
    }
  }

  /** The owner of an upload: the record itself (its model) or a row of one of its array fields (model Veicolo). */
  async resolve(db: Db, user: AuthUser, model: string | undefined, rawId: string | undefined, rawOwner?: string): Promise<{ owner: OwnerRef; record: Record<string, unknown> }> {
    const wanted = model?.trim() || this.media.model;
    if (wanted === this.media.model) {
      const id = parseId(rawId);
      if (id === undefined) throw invalid({ id: [rawId ? 'Identificativo non valido.' : 'Campo Obbligatorio.'] });
      const record = await this.record(db, user, id, true);
      return { owner: { resource: this.def.name, id }, record };
    }
    const item = this.media.items?.find((i) => i.model === wanted);
    if (!item) throw invalid({ model: [`Modello non valido: ${[this.media.model, ...(this.media.items ?? []).map((i) => i.model)].join(' o ')}.`] });
    if (!rawId || rawId.length > 100) throw invalid({ id: ['Campo Obbligatorio.'] });
    // The row's id may repeat across records (a renewal copies its vehicles): owner_id names the record then.
    const ownerId = rawOwner === undefined || rawOwner === '' ? undefined : parseId(rawOwner);
    if (rawOwner && ownerId === undefined) throw invalid({ owner_id: ['Identificativo non valido.'] });
    const found = await sql<{ id: number }>`
      SELECT id FROM ${sql.table(this.def.name)} WHERE ${sql.ref(item.field)} @> ${JSON.stringify([{ id: rawId }])}::jsonb
        ${ownerId === undefined ? sql`` : sql`AND id = ${ownerId}`} ORDER BY id LIMIT 2`.execute(db);
    if (!found.rows[0]) throw notFound(item.model, false);
    if (found.rows.length > 1) throw invalid({ owner_id: [`Più record contengono questo ${item.model.toLowerCase()}: indica owner_id.`] });
    const record = await this.record(db, user, Number(found.rows[0].id), true);
    return { owner: { resource: this.def.name, id: Number(found.rows[0].id), itemModel: item.model, itemId: rawId }, record };
  }
}

export interface UploadTarget {
  owner: OwnerRef;
  collectionName: string;
  collection: MediaCollectionConfig;
}

export interface UploadOptions {
  /** Finds, scopes and locks the owner from the form fields (id, collection, model), refusing what the user may not do. */
  resolve(trx: Transaction<any>, fields: Record<string, string>): Promise<UploadTarget>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Every collection that may be named, for the limits applied while the file streams before the fields are known. */
  collections: Map<string, MediaCollectionConfig>;
  /** Which count limit applies: staff screens (maxCount) or the customer's public flow (publicMaxCount). */
  audience: 'staff' | 'public';
  user?: { id: number; name: string } | null;
  /** Multipart field of the file (default "file"). */
  fileField?: string;
  /** Fields given in the query string (spec 002: model, id, tag, collection); the form's own fields win. */
  fields?: Record<string, string>;
  /** Runs in the upload's transaction once the file is accepted (a signed contract completing its signature request). */
  afterStore?(trx: Transaction<any>, stored: MediaRecord, target: UploadTarget): Promise<void>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Descriptive fields a collection asks for (a notice's version and validity date), from the form. */
function metaFields(collection: MediaCollectionConfig, fields: Record<string, string>): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const name of collection.fields ?? []) {
    const value = (fields[name] ?? '').trim();
    if (!value) errors[name] = ['Campo Obbligatorio.'];
    else if (name === 'valido_dal' && !isCalendarDate(value)) errors[name] = [formatMessages.date];
    else if (value.length > 50) errors[name] = ['Massimo 50 caratteri.'];
    else meta[name] = value;
  }
  // A caller's label for the file (spec 002's tag), kept with it.
  const tag = (fields.tag ?? '').trim();
  if (tag.length > 50) errors.tag = ['Massimo 50 caratteri.'];
  else if (tag) meta.tag = tag;
  if (Object.keys(errors).length) throw invalid(errors);
  return meta;
}

/**
 * Receives one multipart upload (file, nome_file, id, collection, model) into the store, all or nothing: the row and
 * the bytes are written in one transaction that any refusal rolls back. Public flows (issue 12) and other owners reuse it.
 */
export async function acceptUpload({ db, media }: MediaContext, request: FastifyRequest, options: UploadOptions): Promise<MediaRecord> {
  if (!request.isMultipart()) throw invalid({ file: [NO_FILE] }, NO_FILE);
  const lenient = { types: ['pdf', 'jpeg', 'png'] as MediaType[], maxBytes: Math.max(...[...options.collections.values()].map((c) => c.maxSizeMb)) * MB };
  const fields: Record<string, string> = { ...options.fields };
  const fileField = options.fileField ?? 'file';
  return mediaTransaction(db, async (trx) => {
    let stored: MediaRecord | undefined;
    let target: UploadTarget | undefined;
    const resolveTarget = async () => {
      if (!(fields.collection ?? fields.collection_name)) throw invalid({ collection: ['Campo Obbligatorio.'] });
      const found = await options.resolve(trx, fields);
      const max = options.audience === 'public' ? found.collection.publicMaxCount ?? found.collection.maxCount : found.collection.maxCount;
      // A single-file collection replaces its file instead (below, once the new one is accepted).
      if (!found.collection.single && max !== undefined && (await countDocuments(trx, found.owner, found.collectionName)) >= max) {
        throw invalid({ file: [`Sono già presenti ${max} documenti per la categoria "${found.collection.title}".`] });
      }
      target = found;
    };
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== fileField || stored) {
        part.file.resume();
        throw invalid({ [part.fieldname]: [`Si può caricare un solo file per volta, nel campo "${fileField}".`] });
      }
      if (!part.filename) {
        // A form posted without choosing a file still sends an empty part.
        part.file.resume();
        continue;
      }
      if (fields.id !== undefined && (fields.collection ?? fields.collection_name) !== undefined) await resolveTarget();
      stored = await media.storeDocument(trx, {
        owner: target?.owner ?? { resource: '', id: 0 },
        collection: target?.collectionName ?? '',
        name: fields.nome_file,
        fileName: part.filename,
        source: part.file,
        types: target?.collection.types ?? lenient.types,
        maxBytes: target ? target.collection.maxSizeMb * MB : lenient.maxBytes,
        user: options.user,
      });
      // busboy stops at its own limit without an error: the file was cut, so refuse it.
      if (part.file.truncated) throw invalid({ file: [`Il file supera la dimensione massima consentita (${lenient.maxBytes / MB} MB).`] });
    }
    if (!stored) throw invalid({ file: [NO_FILE] }, NO_FILE);
    if (!target) {
      // The fields came after the file: check now what could not be checked while it streamed.
      await resolveTarget();
      const t = target!;
      const type = ({ 'application/pdf': 'pdf', 'image/jpeg': 'jpeg', 'image/png': 'png' } as Record<string, MediaType>)[stored.mime_type]!;
      if (!t.collection.types.includes(type)) throw invalid({ file: ['Tipo di file non consentito per questa categoria.'] });
      if (Number(stored.size) > t.collection.maxSizeMb * MB) throw invalid({ file: [`Il file supera la dimensione massima consentita (${t.collection.maxSizeMb} MB).`] });
      const rows = await sql<MediaRecord>`UPDATE media SET owner_resource = ${t.owner.resource}, owner_id = ${t.owner.id}, item_model = ${t.owner.itemModel ?? null},
        item_id = ${t.owner.itemId ?? null}, collection_name = ${t.collectionName}, name = ${fields.nome_file?.trim() || stored.file_name} WHERE id = ${stored.id} RETURNING *`.execute(trx);
      stored = rows.rows[0]!;
    }
    const meta = metaFields(target!.collection, fields);
    if (Object.keys(meta).length) {
      stored = (await sql<MediaRecord>`UPDATE media SET meta = meta || ${JSON.stringify(meta)}::jsonb WHERE id = ${stored.id} RETURNING *`.execute(trx)).rows[0]!;
    }
    if (target!.collection.single) {
      // The new file is accepted: the previous one goes, in the same transaction (a refusal above kept it).
      const owner = target!.owner;
      const previous = await sql<{ id: number }>`SELECT id FROM media WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id}
        AND collection_name = ${target!.collectionName} AND item_model IS NOT DISTINCT FROM ${owner.itemModel ?? null}
        AND item_id IS NOT DISTINCT FROM ${owner.itemId ?? null} AND id <> ${stored.id}`.execute(trx);
      for (const row of previous.rows) await media.deleteDocument(trx, Number(row.id));
    }
    await options.afterStore?.(trx, stored, target!);
    return stored;
  });
}

/** Upload fields a client may send in the query string instead of the form (spec 002 §7.1). */
const UPLOAD_FIELDS = ['model', 'id', 'tag', 'collection', 'collection_name', 'nome_file', 'owner_id'] as const;
const uploadQuery = {
  type: 'object',
  properties: Object.fromEntries(UPLOAD_FIELDS.map((k) => [k, { type: 'string', maxLength: 200 }])),
} as const;

async function upload(app: FastifyInstance, owner: MediaOwner, request: FastifyRequest) {
  const user = request.user;
  const query = (request.query ?? {}) as Record<string, string>;
  const media = await acceptUpload(app.ctx, request, {
    collections: collectionsOf(owner.media),
    audience: 'staff',
    user,
    fileField: owner.media.fileField,
    fields: Object.fromEntries(UPLOAD_FIELDS.filter((k) => typeof query[k] === 'string').map((k) => [k, query[k]!])),
    async resolve(trx, fields) {
      const { owner: ref, record } = await owner.resolve(trx, user, fields.model, fields.id, fields.owner_id);
      const collectionName = (fields.collection ?? fields.collection_name)!;
      const collection = collectionsOf(owner.media, fields.model?.trim() || owner.media.model).get(collectionName);
      if (!collection) throw invalid({ collection: ['Categoria di documento non valida.'] });
      if (collection.generated) throw invalid({ collection: ['Categoria riservata ai documenti generati dal sistema.'] });
      owner.assertMayChange(user, record, 'upload');
      // Replacing a single file deletes the stored one: whoever may delete it.
      if (collection.single) owner.assertMayChange(user, record, 'delete');
      return { owner: ref, collection, collectionName };
    },
  });
  return { message: UPLOADED, data: { media: presentMedia(downloadPattern(owner.def), media) } };
}

export async function registerMediaRoutes(app: FastifyInstance): Promise<void> {
  // preservePath: busboy would quietly cut "../../x.pdf" to "x.pdf"; the name check must see what was sent.
  await app.register(multipart, { preservePath: true, limits: { fileSize: 1024 * MB, files: 2, fields: 20, parts: 30, fieldSize: 10_000 } } as Parameters<typeof multipart>[1]);
  for (const def of app.ctx.definitions.resources.values()) {
    const media = def.resource.media;
    if (!media) continue;
    const workflow = def.resource.workflow ? app.ctx.workflows.get(def.resource.workflow.machine) : undefined;
    const owner = new MediaOwner(def, app.ctx, workflow);
    const base = def.resource.api.path;
    const paths = media.paths ?? {};
    const ownFile = async (request: FastifyRequest) => {
      const params = request.params as { collection_name: string; id: string };
      const id = parsePathId(params.id, () => notFound('Documento', false));
      const m = await findDocument(app.ctx.db, id);
      if (!m || m.owner_resource !== def.name || m.collection_name !== params.collection_name) throw notFound('Documento', false);
      if (!owner.mayRead(request.user)) throw forbidden();
      return m;
    };

    for (const p of paths.upload ?? [`${base}/upload`]) {
      app.post(p, { schema: { querystring: uploadQuery } }, async (request, reply) => {
        reply.code(201);
        return upload(app, owner, request);
      });
    }
    for (const p of paths.download ?? [`${base}/getDocument/:collection_name/:id`]) {
      app.get(p, {
        schema: { params: { type: 'object', properties: { collection_name: { type: 'string', maxLength: 100 }, id: { type: 'string', maxLength: 12 } }, required: ['collection_name', 'id'] }, querystring: { type: 'object', properties: { download: { type: 'string' } } } },
      }, async (request, reply) => {
        const m = await ownFile(request);
        // Scoped like the record: another collaborator's file answers 404, as their record does.
        await owner.record(app.ctx.db, request.user, m.owner_id);
        // ?download=1 (the old inline/attachment choice) is still accepted: every file is an attachment now.
        return sendDocument(reply, app.ctx, m);
      });
    }
    for (const p of paths.list ?? [`${base}/:id/media`]) {
      app.get(p, { schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 12 } }, required: ['id'] } } }, async (request, reply) => {
        const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
        if (!owner.mayRead(request.user)) throw forbidden();
        await owner.record(app.ctx.db, request.user, id);
        reply.header('cache-control', 'no-store');
        const collections = [
          ...Object.entries(media.collections).map(([name, c]) => ({ name, model: media.model, ...c })),
          ...(media.items ?? []).flatMap((item) => Object.entries(item.collections).map(([name, c]) => ({ name, model: item.model, ...c }))),
        ];
        return { data: (await listDocuments(app.ctx.db, { resource: def.name, id })).map((m) => presentMedia(downloadPattern(def), m)), collections };
      });
    }
    for (const p of paths.delete ?? [`${base}/getDocument/:collection_name/:id`]) {
      app.delete(p, { schema: { params: { type: 'object', properties: { collection_name: { type: 'string', maxLength: 100 }, id: { type: 'string', maxLength: 12 } }, required: ['collection_name', 'id'] } } }, async (request) => {
        const m = await ownFile(request);
        if (collectionsOf(media).get(m.collection_name)?.generated) throw new HttpError(409, 'Documento generato dal sistema: non può essere eliminato.');
        await mediaTransaction(app.ctx.db, async (trx) => {
          const record = await owner.record(trx, request.user, m.owner_id, true);
          owner.assertMayChange(request.user, record, 'delete');
          await app.ctx.media.deleteDocument(trx, Number(m.id));
        });
        return { message: 'Documento eliminato con successo.' };
      });
    }
  }
}
