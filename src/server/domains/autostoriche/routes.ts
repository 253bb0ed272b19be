// Custom routes of historic-car models: all-or-nothing import of a CSV/XLSX file, and the make and model look-ups for pickers.
import { PassThrough } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type ControlledTransaction, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { FieldDefinition, FieldKind, ResourceDefinition } from '../../../shared/definitions/types.ts';
import { operazioneMassiva } from '../../storico/contesto.ts';
import { requirePermission } from '../../auth/guards.ts';
import { HttpError, fromDatabaseError, invalid } from '../../errors.ts';
import { NO_FILE, fileError, importSpec, readModels, type BatchSink, type ImportProgress, type ImportSpec, type ParsedModels } from './import.ts';
import { RESOURCE, presentModel } from './rules.ts';

const IMPORT_PERMISSION = 'gestione_auto_storiche';
const LOOKUP_PERMISSION = 'show_auto_storiche';
const MAX_FILE_MB = 20;
const SEARCH_LIMIT = 50;
// Per connection and dropped at commit: two imports at once each have their own.
const STAGE = 'import_autostoriche_righe';

const ARRAY_TYPES: Record<FieldKind, string> = {
  text: 'text[]',
  integer: 'integer[]',
  number: 'double precision[]',
  money: 'numeric[]',
  boolean: 'boolean[]',
  date: 'date[]',
  datetime: 'timestamptz[]',
  json: 'jsonb[]',
};

const LIMIT_MESSAGES: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: `Il file supera la dimensione massima di ${MAX_FILE_MB} MB.`,
  FST_FILES_LIMIT: 'Puoi caricare un solo file alla volta.',
  FST_PARTS_LIMIT: 'Troppi campi nella richiesta.',
  FST_FIELDS_LIMIT: 'Troppi campi nella richiesta.',
};

function limitError(error: unknown): HttpError | undefined {
  const message = LIMIT_MESSAGES[(error as { code?: string }).code ?? ''];
  return message ? new HttpError(413, message, { file: [message] }) : undefined;
}

const FLAG_MESSAGES = {
  cancella: 'Valore non ammesso: usa 1 per cancellare i modelli esistenti, 0 per aggiungere',
  anteprima: "Valore non ammesso: usa 1 per vedere l'effetto dell'importazione senza salvarla, 0 per importare",
  conferma: 'Valore non ammesso: usa 1 per confermare la cancellazione dei modelli esistenti',
} as const;
type Flag = keyof typeof FLAG_MESSAGES;

function parseFlag(name: Flag, raw: string | undefined): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (['1', 'true'].includes(value)) return true;
  if (['0', 'false', ''].includes(value)) return false;
  throw invalid({ [name]: [FLAG_MESSAGES[name]] });
}

type ImportOptions = Record<Flag, boolean>;

/** The uploaded file, read and checked, and the options (cancella, anteprima, conferma), whichever order the parts arrive in. */
async function receiveUpload(request: FastifyRequest, spec: ImportSpec, onProgress?: ImportProgress, sink?: BatchSink): Promise<{ parsed: ParsedModels; options: ImportOptions }> {
  if (!request.isMultipart()) throw fileError(NO_FILE);
  let parsed: ParsedModels | undefined;
  const raw: Partial<Record<Flag, string>> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname in FLAG_MESSAGES) raw[part.fieldname as Flag] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume(); // not ours: let the rest of the request through
        continue;
      }
      const tooLarge = limitError({ code: 'FST_REQ_FILE_TOO_LARGE' })!;
      // Stop reading at the limit instead of parsing the rest of a file that will be refused anyway.
      part.file.once('limit', () => part.file.destroy(tooLarge));
      try {
        parsed = await readModels(spec, part.filename ?? '', part.file, onProgress, sink);
      } catch (error) {
        if (part.file.truncated) throw tooLarge;
        part.file.destroy();
        throw error;
      }
      if (part.file.truncated) throw tooLarge;
    }
  } catch (error) {
    throw limitError(error) ?? error;
  }
  if (!parsed) throw fileError(NO_FILE);
  const options = Object.fromEntries((Object.keys(FLAG_MESSAGES) as Flag[]).map((name) => [name, parseFlag(name, raw[name])])) as ImportOptions;
  return { parsed, options };
}

/** What a wipe does to the models there now: those to delete, and those kept out of catalogue for the quotations using them. */
export interface WipeImpact {
  da_eliminare: number;
  fuori_catalogo: number;
  /** Quotations whose vehicles point at a model there now. */
  quotazioni: number;
}

/**
 * Where other records point at a model by id: quotations in their vehicles (a JSON array), policy endorsements in a
 * column. Only the tables the definitions declare are read (tests run on trimmed copies of schemas/).
 */
export interface ModelReferences {
  quotazione: boolean;
  appendice: boolean;
}

function quotationCount(count: number): string {
  return count === 1 ? '1 quotazione usa' : `${count} quotazioni usano`;
}

/** One INSERT ... SELECT FROM unnest(...) for a batch: one array parameter per column. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function insertColumns(trx: Transaction<any>, table: string, fields: FieldDefinition[], columns: unknown[][]): Promise<void> {
  const arrays = fields.map((f, i) => {
    const values = columns[i]!;
    const stored = f.kind === 'json' ? values.map((v) => (v === null ? null : JSON.stringify(v))) : values;
    return sql`${stored}::${sql.raw(ARRAY_TYPES[f.kind])}`;
  });
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(fields.map((f) => sql.ref(f.name)))}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(trx);
}

/**
 * Valid rows staged in a temporary table while the upload is still read, so the server never holds the whole file's rows.
 * The transaction opens with the first batch (the upload's parts may bring cancella after the file) and ends in publish or discard.
 */
class Staging {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private trx: ControlledTransaction<any> | undefined;
  private fields: FieldDefinition[] = [];

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(private readonly db: Kysely<any>) {}

  readonly add: BatchSink = async (fields, columns) => {
    if (!this.trx) {
      this.trx = await this.db.startTransaction().execute();
      this.fields = fields;
      const list = sql.join(fields.map((f) => sql.ref(f.name)));
      await sql`CREATE TEMP TABLE ${sql.table(STAGE)} ON COMMIT DROP AS SELECT ${list} FROM ${sql.table(RESOURCE)} WITH NO DATA`.execute(this.trx);
    }
    await insertColumns(this.trx, STAGE, fields, columns);
  };

  /**
   * The models there now that other records point at, and how many quotations do; with `lock`, writes to those
   * records wait until this transaction ends, so none can start pointing at a model about to be deleted.
   */
  private async referenced(trx: Transaction<any>, references: ModelReferences, lock: boolean): Promise<{ ids: number[]; quotazioni: number }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const tables = (['quotazione', 'appendice'] as const).filter((table) => references[table]);
    if (!tables.length) return { ids: [], quotazioni: 0 };
    if (lock) await sql`LOCK TABLE ${sql.join(tables.map((table) => sql.table(table)))} IN SHARE MODE`.execute(trx);
    const parts = [];
    // ->> on an element that is not an object gives null, so odd vehicles match nothing.
    if (references.quotazione) parts.push(sql`
      SELECT a.id AS modello, q.id AS quotazione FROM quotazione q
      CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(q.veicoli_storici) = 'array' THEN q.veicoli_storici ELSE '[]'::jsonb END) v
      JOIN ${sql.table(RESOURCE)} a ON a.id::text = v ->> 'auto_storica_id'`);
    if (references.appendice) parts.push(sql`
      SELECT a.id AS modello, NULL::integer AS quotazione FROM appendice p JOIN ${sql.table(RESOURCE)} a ON a.id = p.auto_storica_id`);
    const rows = (await sql<{ modello: number; quotazione: number | null }>`${sql.join(parts, sql` UNION `)}`.execute(trx)).rows;
    return {
      ids: [...new Set(rows.map((r) => r.modello))],
      quotazioni: new Set(rows.filter((r) => r.quotazione !== null).map((r) => r.quotazione)).size,
    };
  }

  /**
   * Empties the table first if asked, except the models other records point at (kept, out of catalogue), moves the
   * staged rows in and commits unless `cancelled` says otherwise. A preview (`anteprima`) only answers the impact and
   * keeps nothing; a wipe that would touch quotations needs `conferma`, else nothing changes (409 with the impact).
   */
  async publish(options: ImportOptions, references: ModelReferences, cancelled: () => boolean): Promise<WipeImpact> {
    const trx = this.trx!;
    // Two imports at once would each wipe only what was committed before them, then both insert.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`import:${RESOURCE}`}))`.execute(trx);
    const impact: WipeImpact = { da_eliminare: 0, fuori_catalogo: 0, quotazioni: 0 };
    let kept: number[] = [];
    if (options.cancella) {
      const { ids, quotazioni } = await this.referenced(trx, references, !options.anteprima);
      const total = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(RESOURCE)}`.execute(trx)).rows[0]!.n);
      kept = ids;
      Object.assign(impact, { da_eliminare: total - ids.length, fuori_catalogo: ids.length, quotazioni });
    }
    if (options.anteprima) return impact;
    if (impact.quotazioni && !options.conferma) {
      const message = `${quotationCount(impact.quotazioni)} modelli che l'importazione eliminerebbe: conferma (conferma = 1) per tenerli fuori catalogo. Nessun modello modificato.`;
      throw new HttpError(409, message, { cancella: [message] }, { ...impact, conferma_richiesta: true });
    }
    // One history entry for the whole import, not one per model.
    const riepilogo = await operazioneMassiva(trx, RESOURCE, 'importazione');
    if (options.cancella) {
      const deleted = await trx.deleteFrom(RESOURCE).where('id', '!=', sql<number>`ALL(${kept}::integer[])`).executeTakeFirst();
      // What was deleted, also a model added through the API since the count.
      impact.da_eliminare = Number(deleted.numDeletedRows);
      // Still read and priced by the quotations using them, no longer offered for new ones (search, marche).
      if (kept.length) {
        await trx.updateTable(RESOURCE)
          .set({ fuori_catalogo: true, version: sql`version + 1`, updated_at: sql`now()` })
          .where('id', '=', sql<number>`ANY(${kept}::integer[])`).where(sql<SqlBool>`fuori_catalogo IS NOT TRUE`)
          .execute();
      }
    }
    const list = sql.join(this.fields.map((f) => sql.ref(f.name)));
    const inserted = await sql`INSERT INTO ${sql.table(RESOURCE)} (${list}) SELECT ${list} FROM ${sql.table(STAGE)}`.execute(trx);
    await riepilogo({
      importati: [null, Number(inserted.numAffectedRows ?? 0)],
      ...(options.cancella ? { eliminati: [null, impact.da_eliminare], fuori_catalogo: [null, impact.fuori_catalogo] } : {}),
    });
    // A client that went away before the commit cancelled the import: roll back, nothing changes.
    if (cancelled()) throw new ImportCancelled();
    await trx.commit().execute();
    this.trx = undefined;
    return impact;
  }

  async discard(): Promise<void> {
    const trx = this.trx;
    this.trx = undefined;
    if (trx) await trx.rollback().execute();
  }
}

class ImportCancelled extends Error {
  constructor() {
    super('Importazione annullata: nessun modello modificato.');
  }
}

function readableColumns(def: ResourceDefinition): string[] {
  return [...new Set(['id', 'version', ...def.fields.filter((f) => !f.writeOnly).map((f) => f.name)])];
}

function firstString(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : undefined;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes(RESOURCE, async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get(RESOURCE);
    // Definitions without this resource (tests on trimmed copies of schemas/) simply get no such routes.
    if (!def) return;
    const spec = importSpec(def);
    const references: ModelReferences = { quotazione: app.ctx.definitions.resources.has('quotazione'), appendice: app.ctx.definitions.resources.has('appendice') };
    const titleOf = (table: string) => app.ctx.definitions.resources.get(table)?.resource.title ?? table;
    const columns = sql.join(readableColumns(def).map((c) => sql.ref(c)));
    await app.register(multipart, { limits: { fileSize: MAX_FILE_MB * 1024 * 1024, files: 1, fields: 10, parts: 20 } });

    for (const base of [def.resource.api.path, ...(def.resource.api.aliases ?? [])]) {
      /** The import itself; `onProgress` hears the rows read and valid, `cancelled` is asked before anything is kept. */
      const runImport = async (request: FastifyRequest, onProgress?: ImportProgress, cancelled: () => boolean = () => false) => {
        const staging = new Staging(app.ctx.db);
        try {
          const { parsed, options } = await receiveUpload(request, spec, onProgress, staging.add);
          if (parsed.invalidRows) {
            const message = parsed.invalidRows === 1
              ? 'Importazione annullata: 1 riga non valida. Nessun modello importato.'
              : `Importazione annullata: ${parsed.invalidRows} righe non valide. Nessun modello importato.`;
            const errors: Record<string, string[]> = { file: [message] };
            for (const r of parsed.rejected) (errors[`${r.row}.${r.field}`] ??= []).push(r.message);
            throw new HttpError(422, message, errors, {
              rejected: parsed.rejected,
              ...(parsed.rejectedTotal > parsed.rejected.length ? { rejected_total: parsed.rejectedTotal } : {}),
            });
          }
          // A header without rows would turn "cancella" into a plain wipe: refuse it.
          if (parsed.count === 0) throw fileError('Il file non contiene modelli da importare.');
          let impact: WipeImpact;
          try {
            impact = await staging.publish(options, references, cancelled);
          } catch (error) {
            throw fromDatabaseError(error, options.cancella ? 'delete' : 'write', titleOf) ?? error;
          }
          const models = (n: number) => (n === 1 ? '1 modello' : `${n} modelli`);
          if (options.anteprima) {
            const parts = [`Il file contiene ${models(parsed.count)} da importare.`];
            if (options.cancella) parts.push(`Modelli esistenti da eliminare: ${impact.da_eliminare}.`);
            if (impact.quotazioni) parts.push(`${quotationCount(impact.quotazioni)} ${models(impact.fuori_catalogo)} esistenti: resteranno fuori catalogo.`);
            return { anteprima: true, message: parts.join(' '), da_importare: parsed.count, ...impact };
          }
          const message = parsed.count === 1 ? 'Importato 1 modello.' : `Importati ${parsed.count} modelli.`;
          return { message, imported: parsed.count, deleted: impact.da_eliminare, fuori_catalogo: impact.fuori_catalogo, quotazioni: impact.quotazioni };
        } finally {
          await staging.discard().catch((error: unknown) => request.log.error(error));
        }
      };

      app.post(`${base}/import`, {
        preHandler: requirePermission(IMPORT_PERMISSION),
        schema: {
          tags: [RESOURCE], summary: 'Importa modelli (CSV o XLSX, tutto o niente)',
          description: 'Multipart: file; cancella = 1 sostituisce i modelli esistenti (quelli usati da quotazioni restano, fuori catalogo); '
            + "anteprima = 1 legge il file e risponde l'effetto (da_importare, da_eliminare, fuori_catalogo, quotazioni) senza salvare; "
            + 'conferma = 1 serve a cancella = 1 quando delle quotazioni usano i modelli esistenti (senza: 409 e nessuna modifica).',
          querystring: { type: 'object', properties: { progress: { type: 'string', enum: ['0', '1'], description: "1 = risposta NDJSON con l'avanzamento" } } },
          response: { 200: { description: 'Esito, oppure righe NDJSON {letti, validi} e infine {fine, status, message, ...}', type: 'object', additionalProperties: true } },
        },
      }, async (request, reply) => {
        if ((request.query as { progress?: string }).progress !== '1') return runImport(request);
        // Progress: one JSON line per step as the rows are read, then the outcome; closing the connection cancels.
        const out = new PassThrough();
        let closed = false;
        reply.raw.on('close', () => (closed = !reply.raw.writableFinished || closed));
        const line = (value: unknown) => !out.destroyed && out.write(`${JSON.stringify(value)}\n`);
        const progress: ImportProgress = (letti, validi) => {
          if (closed) throw new ImportCancelled();
          line({ letti, validi });
        };
        void runImport(request, progress, () => closed).then(
          (result) => (line({ fine: true, status: 200, ...result }), out.end()),
          (error: unknown) => {
            const status = error instanceof HttpError ? error.statusCode : error instanceof ImportCancelled ? 499 : 500;
            if (status === 500) request.log.error(error);
            const body = error instanceof HttpError ? error.body() : { message: error instanceof ImportCancelled ? error.message : 'Errore interno' };
            line({ fine: true, status, ...body });
            out.end();
          },
        );
        return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(out);
      });

      app.get(`${base}/marche`, { preHandler: requirePermission(LOOKUP_PERMISSION) }, async (_request, reply) => {
        const rows = await sql<{ marca: string }>`
          SELECT DISTINCT marca FROM ${sql.table(RESOURCE)} WHERE marca IS NOT NULL AND fuori_catalogo IS NOT TRUE ORDER BY marca`.execute(app.ctx.db);
        reply.header('cache-control', 'no-store');
        return { data: rows.rows.map((r) => r.marca) };
      });

      app.get(`${base}/search`, { preHandler: requirePermission(LOOKUP_PERMISSION) }, async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        // Models kept only for the quotations already using them are not offered again.
        const conditions: Expression<SqlBool>[] = [sql<SqlBool>`fuori_catalogo IS NOT TRUE`];
        const marca = (firstString(query['filter[marca]']) ?? firstString(query.marca))?.trim();
        // Makes are stored upper-cased (x-uppercase), so an exact match can use the index.
        if (marca) conditions.push(sql<SqlBool>`marca = ${marca.toUpperCase()}`);
        const text = firstString(query.search) ?? firstString(query['filter[search]']) ?? '';
        for (const word of text.trim().split(/\s+/).filter(Boolean).slice(0, 5)) {
          // Upper-cased in JS like the stored values: ILIKE would not fold accented letters (ë, é) under the C locale.
          const pattern = `%${escapeLike(word.toUpperCase())}%`;
          conditions.push(sql<SqlBool>`(modello LIKE ${pattern} OR marca LIKE ${pattern})`);
        }
        const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
        const rows = await sql<Record<string, unknown>>`
          SELECT ${columns} FROM ${sql.table(RESOURCE)} ${where}
          ORDER BY marca, modello, coalesce(anno_da, anno), id LIMIT ${SEARCH_LIMIT}`.execute(app.ctx.db);
        reply.header('cache-control', 'no-store');
        return { data: rows.rows.map((r) => presentModel(r, request.user)) };
      });
    }
  });
}
