// The customer's public link (spec 001 §2, §7): GET/POST/PUT /api/cliente/quotazione and terminaCaricamento, without login.
// Only the fields of schemas/quotazione/public.view.json go in or out; the machine decides while the link stays open.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MigrationStatement } from '../../extensions.ts';
import { enforceLimits, publicAddressLimit } from '../../plugins/rateLimit.ts';
import { HttpError, invalid, notFoundFor } from '../../errors.ts';
import { ID_PARAMS, parsePathId } from '../../http/contract.ts';
import { errorResponses } from '../../http/openapi.ts';
import multipart from '@fastify/multipart';
import { requirePermission } from '../../auth/guards.ts';
import { findDocument, listDocuments, mediaTransaction, type MediaRecord, type OwnerRef } from '../../media/store.ts';
import { UPLOADED, acceptUpload, sendDocument } from '../../media/routes.ts';
import { noticesInForce } from '../../media/notices.ts';
import type { MediaCollectionConfig } from '../../../shared/definitions/types.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';
import type { WorkflowUser } from '../../../shared/workflow/guards.ts';
import { compileValidator, lazyValidator, normalizeInput, withoutNulls, type FieldErrors } from '../../../shared/validation.ts';
import { hiddenProperties } from '../../../shared/rules.ts';
import { canonicalInput } from '../../../shared/canonical.ts';
import type { JsonSchema } from '../../../shared/definitions/types.ts';
import {
  consentsOf, fieldsUpTo, publicRules, publicSchema, type PublicStep, type PublicView, type ShownNotice,
} from '../../../shared/domains/quotazione/pubblico.ts';
import type { AppConfig } from '../../context.ts';
import { conDatiDelServer } from './veicoli.ts';

const DIR = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'schemas', 'quotazione');
const view: PublicView = JSON.parse(readFileSync(path.join(DIR, 'public.view.json'), 'utf8'));
const ui: Record<string, unknown> & { 'ui:passi': PublicStep[] } = JSON.parse(readFileSync(path.join(DIR, 'public.ui.json'), 'utf8'));
const STEPS = ui['ui:passi'];
const LAST_STEP = STEPS.length - 1;

// Consents are evidence (GDPR art. 7(1)): one row per answer given, never updated nor deleted, and outliving the
// quotation they were given on (kept with the customer: cliente_id; quotazione_id stays as a plain id, no foreign key).
export const PUBBLICO_TABLES: MigrationStatement[] = [
  `CREATE UNIQUE INDEX IF NOT EXISTS quotazione_uuid_unique ON quotazione (uuid)`,
  `CREATE TABLE IF NOT EXISTS quotazione_consenso (
     id bigserial PRIMARY KEY,
     quotazione_id integer NOT NULL,
     consenso text NOT NULL, versione text NOT NULL, testo text NOT NULL, risposta text NOT NULL,
     uuid text NOT NULL, indirizzo text, user_agent text, registrato_il timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS quotazione_consenso_quotazione ON quotazione_consenso (quotazione_id, consenso, id)`,
  // Which pre-contract notices (ids, versions) the customer was shown with the answer, and the link's parameter1.
  `ALTER TABLE quotazione_consenso ADD COLUMN IF NOT EXISTS informative jsonb NOT NULL DEFAULT '[]'::jsonb`,
  `ALTER TABLE quotazione_consenso ADD COLUMN IF NOT EXISTS origine text`,
  `ALTER TABLE quotazione_consenso ADD COLUMN IF NOT EXISTS cliente_id integer`,
  `CREATE INDEX IF NOT EXISTS quotazione_consenso_cliente ON quotazione_consenso (cliente_id, id)`,
  // Databases made before: the foreign key deleted the evidence with its quotation (ON DELETE CASCADE).
  `DO $$ DECLARE fk text; BEGIN
     FOR fk IN SELECT conname FROM pg_constraint WHERE conrelid = 'quotazione_consenso'::regclass AND contype = 'f' LOOP
       EXECUTE format('ALTER TABLE quotazione_consenso DROP CONSTRAINT %I', fk);
     END LOOP; END $$`,
  // Append-only: the one change allowed is attaching the record to the customer it was given for (cliente_id from empty).
  `CREATE OR REPLACE FUNCTION quotazione_consenso_immutabile() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN
       IF TG_OP = 'UPDATE' AND OLD.cliente_id IS NULL AND NEW.cliente_id IS NOT NULL
          AND to_jsonb(NEW) - 'cliente_id' = to_jsonb(OLD) - 'cliente_id' THEN RETURN NEW; END IF;
       RAISE EXCEPTION 'quotazione_consenso is append-only';
     END $$`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'quotazione_consenso_no_update') THEN
       CREATE TRIGGER quotazione_consenso_no_update BEFORE UPDATE ON quotazione_consenso
         FOR EACH ROW EXECUTE FUNCTION quotazione_consenso_immutabile();
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'quotazione_consenso_no_delete') THEN
       CREATE TRIGGER quotazione_consenso_no_delete BEFORE DELETE ON quotazione_consenso
         FOR EACH ROW EXECUTE FUNCTION quotazione_consenso_immutabile();
     END IF; END $$`,
  // The customer of the quotation, at the answer or as soon as the quotation gets one (the public flow creates it later).
  `CREATE OR REPLACE FUNCTION quotazione_consenso_cliente() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN
       NEW.cliente_id := COALESCE(NEW.cliente_id, (SELECT cliente_id FROM quotazione WHERE id = NEW.quotazione_id));
       RETURN NEW;
     END $$`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'quotazione_consenso_cliente') THEN
       CREATE TRIGGER quotazione_consenso_cliente BEFORE INSERT ON quotazione_consenso
         FOR EACH ROW EXECUTE FUNCTION quotazione_consenso_cliente();
     END IF; END $$`,
  `CREATE OR REPLACE FUNCTION quotazione_cliente_consensi() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN
       UPDATE quotazione_consenso SET cliente_id = NEW.cliente_id WHERE quotazione_id = NEW.id AND cliente_id IS NULL;
       RETURN NULL;
     END $$`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'quotazione_cliente_consensi') THEN
       CREATE TRIGGER quotazione_cliente_consensi AFTER UPDATE OF cliente_id ON quotazione
         FOR EACH ROW WHEN (NEW.cliente_id IS NOT NULL AND NEW.cliente_id IS DISTINCT FROM OLD.cliente_id)
         EXECUTE FUNCTION quotazione_cliente_consensi();
     END IF; END $$`,
  // Records given before cliente_id existed: attached once (nothing left to do on later starts).
  `UPDATE quotazione_consenso c SET cliente_id = q.cliente_id FROM quotazione q
     WHERE q.id = c.quotazione_id AND c.cliente_id IS NULL AND q.cliente_id IS NOT NULL`,
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONSENT_FLAGS: Record<string, string> = { consenso_trattamento: 'consenso_trattamento', consenso_allegati: 'consenso_allegati' };

/** The customer as the machine sees them: no permissions, kind 'cliente' (guard attoreCliente). */
const CLIENTE: AuthUser & WorkflowUser = {
  id: 0, email: '', name: 'Cliente (link personale)', collaboratore_id: null, tokenId: 0, roles: [], permissions: [], kind: 'cliente',
};

function limits(config: AppConfig) {
  return { perUuid: config.PUBLIC_RATE_LIMIT_UUID, windowSeconds: config.PUBLIC_RATE_LIMIT_WINDOW };
}

export type Phase = 'form' | 'documenti';

/** Where the machine lets the customer act: the form (status 4) or the documents (status 5); otherwise the link is closed. */
function customerPhase(workflow: Workflow, row: Record<string, unknown>): Phase | undefined {
  const status = Number(row[workflow.statusField]);
  for (const phase of ['form', 'documenti'] as const) {
    if (workflow.can(status, CLIENTE, row, { type: view.fasi[phase] })) return phase;
  }
  return undefined;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.publicRoutes('quotazione-pubblico', async (app: FastifyInstance) => {
    // What the personal link writes is the customer's, in the records' history.
    app.addHook('onRequest', (request, _reply, done) => {
      if (!request.headers.authorization) request.storicoCliente = 'Cliente (link personale)';
      done();
    });
    const db = app.ctx.db;
    const def = app.ctx.definitions.resources.get('quotazione')!;
    const workflow: Workflow = app.ctx.workflows.get(def.resource.workflow!.machine)!;
    const repo = new ResourceRepository(def, app.ctx, undefined, workflow);
    const clienteDef = app.ctx.definitions.resources.get('cliente')!;
    const validateCliente = lazyValidator(() => app.ctx.ajv, clienteDef.schema);
    const clienti = new ResourceRepository(clienteDef, app.ctx);
    const consents = () => consentsOf(schemaNow());
    // Built on first use; bounds that move with the date (car years, birth dates) are read by the validator itself.
    let cached: { schema: JsonSchema; validate: (d: unknown) => FieldErrors | null } | undefined;
    const schemaNow = () => current().schema;
    function current() {
      if (!cached) {
        const schema = publicSchema(def.schema, view);
        cached = { schema, validate: compileValidator(app.ctx.ajv, schema) };
      }
      return cached;
    }
    const props = () => (schemaNow().properties ?? {}) as Record<string, JsonSchema>;
    const fieldDefs = def.fields;
    const invalidLink = () => new HttpError(404, view.messaggi.linkNonValido);
    const origineOf = (request: FastifyRequest) => (request.query as { parameter1?: string }).parameter1 ?? null;

    // ---- Pre-contract notices of the quotation's product, shown before the consents and named in each consent record ----
    const info = view.informative;
    const noticeCollections = app.ctx.definitions.resources.get(info.risorsa)?.resource.media?.collections ?? {};
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function productOf(q: Transaction<any> | typeof db, row: Record<string, unknown>): Promise<number | undefined> {
      const value = row[info.prodotto.valore];
      if (value === null || value === undefined) return undefined;
      const active = (info.prodotto.attivi ?? []).map((c) => sql`${sql.ref(c)} IS NOT FALSE`);
      const found = await sql<{ id: number }>`
        SELECT id FROM ${sql.table(info.risorsa)} WHERE ${sql.ref(info.prodotto.campo)} = ${String(value)}
          ${active.length ? sql`AND ${sql.join(active, sql` AND `)}` : sql``}
        ORDER BY id LIMIT 1`.execute(q);
      return found.rows[0]?.id;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function noticesFor(q: Transaction<any> | typeof db, row: Record<string, unknown>): Promise<ShownNotice[]> {
      const product = await productOf(q, row);
      if (product === undefined) return [];
      const files = await noticesInForce(q, { resource: info.risorsa, id: product }, info.collezioni);
      const order = (name: string) => info.collezioni.indexOf(name);
      return files.sort((a, b) => order(a.collection_name) - order(b.collection_name)).map((m) => ({
        id: Number(m.id), collection_name: m.collection_name, titolo: noticeCollections[m.collection_name]?.title ?? m.collection_name, name: m.name,
        versione: (m.meta?.versione as string | undefined) ?? null, valido_dal: (m.meta?.valido_dal as string | undefined) ?? null, sha256: m.sha256,
      }));
    }
    /** The ids of the notices the page says it showed (body.informative): a list of document ids, or none. */
    function shownIds(body: Record<string, unknown>): number[] {
      const sent = body.informative;
      if (sent === undefined) return [];
      if (!Array.isArray(sent) || sent.length > 50 || !sent.every((v) => Number.isInteger(v))) throw invalid({ informative: ['Elenco delle informative non valido.'] });
      return sent as number[];
    }
    /** The notices shown must be those in force now: otherwise the customer reads the new ones before any answer counts. */
    function assertShown(sent: number[], current: ShownNotice[]) {
      const shown = new Set(sent);
      if (shown.size !== current.length || current.some((n) => !shown.has(n.id))) throw new HttpError(409, info.messaggio, undefined, { informative: current }, 'NOTICES_CHANGED');
    }

    async function limit(request: FastifyRequest, reply: FastifyReply, uuid: string | undefined) {
      const l = limits(app.ctx.config);
      await enforceLimits(db, reply, [
        // Counted already by the public routes' onRequest hook, before the body was read.
        publicAddressLimit(request),
        ...(uuid ? [{ key: `pubblico:uuid:${uuid.toLowerCase().slice(0, 64)}`, max: l.perUuid, windowSeconds: l.windowSeconds }] : []),
      ]);
    }

    const phaseOf = (row: Record<string, unknown>) => customerPhase(workflow, row);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function findOpen(q: Transaction<any> | typeof db, uuid: unknown, lock: boolean) {
      // A malformed, unknown or closed link all answer alike: nothing tells a guesser which one it was.
      if (typeof uuid !== 'string' || !UUID.test(uuid)) throw invalidLink();
      const row = (await sql<Record<string, unknown>>`SELECT * FROM quotazione WHERE uuid = ${uuid.toLowerCase()} ${lock ? sql`FOR UPDATE` : sql``}`.execute(q)).rows[0];
      const phase = row ? phaseOf(row) : undefined;
      if (!row || !phase) throw invalidLink();
      return { row, phase };
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function latestConsents(q: Transaction<any> | typeof db, id: number): Promise<Record<string, string>> {
      const rows = (await sql<{ consenso: string; risposta: string }>`
        SELECT DISTINCT ON (consenso) consenso, risposta FROM quotazione_consenso WHERE quotazione_id = ${id}
        ORDER BY consenso, id DESC`.execute(q)).rows;
      return Object.fromEntries(rows.map((r) => [r.consenso, r.risposta]));
    }

    /** The record as the customer may see it: the view's fields, vehicles trimmed to the view, latest consents. */
    function present(row: Record<string, unknown>, given: Record<string, string>, phase: Phase) {
      const out: Record<string, unknown> = {};
      for (const name of view.sola_lettura) out[name] = row[name] ?? null;
      for (const name of Object.keys(props())) {
        if (name in CONSENT_FLAGS || consents().some(([c]) => c === name)) continue;
        out[name] = row[name] ?? null;
      }
      out.veicoli_storici = ((row.veicoli_storici ?? []) as Array<Record<string, unknown>>).map((v) =>
        Object.fromEntries(view.veicoli_storici.lettura.filter((f) => v[f] !== undefined).map((f) => [f, v[f]])));
      for (const [name] of consents()) out[name] = given[name] ?? null;
      const status = workflow.status(Number(row[workflow.statusField]));
      out.stato_quotazione = { id: status.id, nome: status.nome };
      out.fase = phase;
      if (phase === 'form') out.passo = resumeStep(row, given);
      return out;
    }

    /**
     * Validates what the customer sent for steps 0..step against the stored record: the merged record must pass the
     * public schema and the rules, but only errors of those steps' fields count (later steps are not filled yet).
     */
    async function validated(row: Record<string, unknown>, given: Record<string, string>, body: Record<string, unknown>, step: number) {
      const allowed = fieldsUpTo(STEPS, step);
      const errors: FieldErrors = {};
      const input: Record<string, unknown> = {};
      const schemaProps = props();
      for (const [key, value] of Object.entries(canonicalInput(body, def.schema))) {
        if (['uuid', 'id', 'passo', 'version', 'informative'].includes(key)) continue;
        if (!(key in schemaProps) || view.sola_lettura.includes(key)) errors[key] = ['Campo non consentito.'];
        else if (allowed.has(key)) input[key] = value;
      }
      if (Object.keys(errors).length) throw invalid(errors);
      const normalised = normalizeInput(fieldDefs, input);
      const vehicleItems = (def.schema.properties?.veicoli_storici?.items ?? {}) as JsonSchema;
      // The customer completes the staff's historic vehicles (plate, type, year); adding or removing them is the broker's job.
      if (normalised.veicoli_storici !== undefined) {
        const stored = (row.veicoli_storici ?? []) as Array<Record<string, unknown>>;
        const sent = Array.isArray(normalised.veicoli_storici) ? normalised.veicoli_storici as Array<Record<string, unknown>> : [];
        if (sent.length !== stored.length) throw invalid({ veicoli_storici: ['Non puoi aggiungere o togliere veicoli storici: contatta il tuo intermediario.'] });
        normalised.veicoli_storici = conDatiDelServer(stored.map((v, i) => {
          // Each vehicle needs a row id: its registration document (libretto) is filed under it. The registry data stay
          // while plate and type are those they were read for (conDatiDelServer).
          const out: Record<string, unknown> = { ...v, id: v.id ?? randomUUID() };
          for (const f of view.veicoli_storici.scrittura) {
            const value = sent[i]![f];
            if (value === undefined) continue;
            out[f] = typeof value === 'string' ? (f === 'targa' ? value.trim().toUpperCase() : value.trim()) || null : value;
            if (out[f] === null) delete out[f];
          }
          // What the row's own conditions now hide holds no data (a truck's weight once the vehicle is a car).
          for (const hidden of hiddenProperties(vehicleItems, out)) delete out[hidden];
          return out;
        }), stored, vehicleItems, true);
      }
      if (Array.isArray(normalised.veicoli_moderni)) {
        normalised.veicoli_moderni = (normalised.veicoli_moderni as Array<Record<string, unknown>>).map((v) =>
          Object.fromEntries(Object.entries(v ?? {}).map(([k, val]) => [k, typeof val === 'string' ? (k === 'targa' ? val.trim().toUpperCase() : val.trim()) : val]).filter(([, val]) => val !== '')));
      }
      const { merged, candidate } = candidateOf(row, given, normalised);
      const all = { ...(current().validate(candidate) ?? {}), ...publicRules(candidate, allowed) };
      for (const [key, messages] of Object.entries(all)) {
        const top = key.split('.')[0]!;
        if (allowed.has(top)) errors[key] = messages;
      }
      if (Object.keys(errors).length) throw invalid(errors);
      return { input: normalised, merged };
    }

    /** The record as the customer's schema judges it: stored values, the latest consents, then what was sent. */
    function candidateOf(row: Record<string, unknown>, given: Record<string, string>, sent: Record<string, unknown> = {}) {
      const merged: Record<string, unknown> = {};
      for (const name of Object.keys(props())) merged[name] = row[name] ?? null;
      Object.assign(merged, given, sent);
      if (merged.persona === 'g') merged.sesso = null;
      // Stored vehicles carry the broker's fields too (value, colour): the customer's schema judges only the public ones.
      if (Array.isArray(merged.veicoli_storici)) {
        merged.veicoli_storici = (merged.veicoli_storici as Array<Record<string, unknown>>).map((v) =>
          Object.fromEntries(view.veicoli_storici.lettura.filter((f) => v[f] !== undefined && v[f] !== null).map((f) => [f, v[f]])));
      }
      return { merged, candidate: withoutNulls(merged) };
    }

    /**
     * Where the link reopens: the step after the last one the customer saved (passo_cliente), or an earlier saved step
     * whose data are no longer complete (changed by staff meanwhile); the start when nothing was saved yet.
     */
    function resumeStep(row: Record<string, unknown>, given: Record<string, string>): number {
      const saved = Number(row.passo_cliente ?? 0);
      if (!Number.isInteger(saved) || saved < 1) return 0;
      const next = Math.min(saved + 1, LAST_STEP);
      const { candidate } = candidateOf(row, given);
      const errors = { ...(current().validate(candidate) ?? {}), ...publicRules(candidate, fieldsUpTo(STEPS, next)) };
      const wrong = new Set(Object.keys(errors).map((key) => key.split('.')[0]!));
      const incomplete = STEPS.findIndex((s, i) => i >= 1 && i < next && s.fields.some((f) => wrong.has(f)));
      return incomplete === -1 ? next : incomplete;
    }

    /** The furthest step saved: going back to correct an earlier step does not lose the later ones. */
    const reached = (row: Record<string, unknown>, step: number) => ({ passo_cliente: Math.max(step, Number(row.passo_cliente ?? 0)) });

    function stepOf(body: Record<string, unknown>, fallback: number): number {
      const raw = body.passo ?? fallback;
      const step = Number(raw);
      if (!Number.isInteger(step) || step < 1 || step > LAST_STEP) throw invalid({ passo: [`Deve essere un numero tra 1 e ${LAST_STEP}`] });
      return step;
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function save(trx: Transaction<any>, request: FastifyRequest, row: Record<string, unknown>, given: Record<string, string>, input: Record<string, unknown>, extra: Record<string, unknown> = {}) {
      const id = Number(row.id);
      const columns: Record<string, unknown> = { ...extra };
      const consentNames = new Set(consents().map(([c]) => c));
      for (const [key, value] of Object.entries(input)) if (!consentNames.has(key)) columns[key] = value;
      if (input.persona === 'g') columns.sesso = 'A';
      const answered = consents().filter(([name]) => typeof input[name] === 'string' && given[name] !== input[name]);
      let shown: ShownNotice[] = [];
      if (answered.length) {
        shown = await noticesFor(trx, row);
        assertShown(shownIds((request.body ?? {}) as Record<string, unknown>), shown);
      }
      for (const [name, declaration] of answered) {
        const answer = input[name] as string;
        // A changed (or first) answer is a new record: the old one stays as the evidence of what was answered then.
        await trx.insertInto('quotazione_consenso').values({
          quotazione_id: id, consenso: name, versione: declaration.versione, testo: declaration.testo, risposta: answer,
          uuid: String(row.uuid), indirizzo: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 500),
          informative: JSON.stringify(shown.map(({ id: doc, collection_name, titolo, versione, valido_dal, sha256 }) => ({ id: doc, collection_name, titolo, versione, valido_dal, sha256 }))),
          origine: origineOf(request),
        }).execute();
        given[name] = answer;
        if (CONSENT_FLAGS[name]) columns[CONSENT_FLAGS[name]] = answer === 'ok';
      }
      return Object.keys(columns).length ? repo.writeOnBehalf(trx, CLIENTE, row, columns) : row;
    }

    /** Customer master data from the personal-data step: created once, then kept up to date (spec 001 §2, step 1). */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function upsertCliente(trx: Transaction<any>, row: Record<string, unknown>, m: Record<string, unknown>): Promise<number> {
      const giuridica = m.persona === 'g';
      const cliente: Record<string, unknown> = {
        tipo: giuridica ? 'CORPORATE' : 'RETAIL',
        sesso: giuridica ? 'A' : m.sesso,
        nome: giuridica ? m.rsoc : m.nome,
        cognome: giuridica ? null : m.cognome,
        piva: giuridica ? m.piva : null,
        cf: m.cfisc ?? null,
        dataNascita: giuridica ? null : m.dataNascita ?? null,
        comune_nascita_id: giuridica ? null : m.comune_nascita_id ?? null,
        // The same country id on both records (src/shared/validators/nazione.ts).
        nazioneNascita: giuridica ? null : m.nazione_nascita_id ?? null,
        residenzaIndirizzo: m.residenzaIndirizzo ?? null,
        residenzaCivico: m.residenzaCivico ?? null,
        residenzaCap: m.residenzaCap ?? null,
        residenza_comune_id: m.residenza_comune_id ?? null,
        residenzaProv: m.provincia_codice ?? null,
        email: m.email ?? null,
        cell: m.telefono ?? null,
        collaboratore_id: row.collaboratore_id ?? null,
      };
      const errors = validateCliente(withoutNulls(normalizeInput(clienteDef.fields, cliente)));
      if (errors) throw invalid(errors);
      const values = normalizeInput(clienteDef.fields, cliente);
      // Through the customer resource's repository, validated once more with the stored record merged in.
      const lock = async (id: number) => (await sql<Record<string, unknown>>`SELECT * FROM cliente WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0];
      const existing = row.cliente_id ? await lock(Number(row.cliente_id)) : undefined;
      if (existing) return Number((await clienti.writeOnBehalf(trx, CLIENTE, existing, values)).id);
      // A codice fiscale already on file is the same person: that customer, not a second one (issue 29). Kept up to date
      // only when it is the quotation's collaborator's own; another's is linked as it is, its data neither changed nor shown.
      const holders = app.extensions.serviceOf<(db: Transaction<any>, cf: unknown) => Promise<number[]>>('cliente.titolari'); // eslint-disable-line @typescript-eslint/no-explicit-any
      const [held] = await holders(trx, values.cf);
      if (held !== undefined) {
        const other = (await lock(held))!;
        const own = row.collaboratore_id === null || row.collaboratore_id === undefined || Number(other.collaboratore_id) === Number(row.collaboratore_id);
        return own ? Number((await clienti.writeOnBehalf(trx, CLIENTE, other, values)).id) : held;
      }
      return Number((await clienti.createOwned(trx, CLIENTE, values)).id);
    }

    const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
    const uuidParam = { type: 'object', properties: { uuid: { type: 'string' } }, required: ['uuid'] } as const;
    const idParam = { type: 'object', properties: { id: { type: 'string', maxLength: 12 } }, required: ['id'] } as const;
    const bodySchema = { type: 'object' } as const;
    const querystring = { type: 'object', properties: { parameter1: view.parametri.parameter1 } } as const;
    const noticesWithUrl = (uuid: string, notices: ShownNotice[]) =>
      notices.map((n) => ({ ...n, url: `/api/cliente/quotazione/${encodeURIComponent(uuid)}/informative/${n.id}` }));

    app.get('/api/cliente/quotazione/:uuid', { schema: { params: uuidParam, querystring } }, async (request, reply) => {
      const { uuid } = request.params as { uuid: string };
      await limit(request, reply, uuid);
      noStore(reply);
      const { row, phase } = await findOpen(db, uuid, false);
      const given = await latestConsents(db, Number(row.id));
      return {
        data: {
          ...present(row, given, phase),
          documenti: phase === 'documenti' ? await documents(Number(row.id)) : [],
          informative: noticesWithUrl(String(row.uuid), await noticesFor(db, row)),
        },
        definizione: { schema: schemaNow(), ui, categorie: categories() },
      };
    });

    // Step 1 'Avanti': the personal data are saved and the customer record is created (data.model.id is its id).
    app.post('/api/cliente/quotazione', { schema: { body: bodySchema, querystring } }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await limit(request, reply, typeof body.uuid === 'string' ? body.uuid : undefined);
      noStore(reply);
      const result = await db.transaction().execute(async (trx) => {
        const { row, phase } = await findOpen(trx, body.uuid, true);
        if (phase !== 'form') throw new HttpError(409, 'I dati sono già stati inviati: carica i documenti.');
        const given = await latestConsents(trx, Number(row.id));
        const { input, merged } = await validated(row, given, body, 1);
        const clienteId = await upsertCliente(trx, row, merged);
        const saved = await save(trx, request, row, given, input, { cliente_id: clienteId, ...reached(row, 1) });
        return { clienteId, model: present(saved, given, phase) };
      });
      reply.code(201);
      return { message: 'Dati anagrafici salvati.', data: { model: { id: result.clienteId }, quotazione: result.model } };
    });

    // Each later step saves its answers (passo 2, 3); the whole form (passo 4, the default) moves the quotation to documents.
    app.put('/api/cliente/quotazione/:id', { schema: { params: idParam, body: bodySchema, querystring } }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await limit(request, reply, typeof body.uuid === 'string' ? body.uuid : undefined);
      noStore(reply);
      const step = stepOf(body, LAST_STEP);
      shownIds(body);
      const model = await db.transaction().execute(async (trx) => {
        const { row, phase } = await findOpen(trx, body.uuid, true);
        // The id must be the link's own quotation: an id alone opens nothing.
        if (String(row.id) !== (request.params as { id: string }).id) throw invalidLink();
        if (phase !== 'form') throw new HttpError(409, 'I dati sono già stati inviati: carica i documenti.');
        const given = await latestConsents(trx, Number(row.id));
        const { input } = await validated(row, given, body, step);
        let saved = await save(trx, request, row, given, input, reached(row, step));
        if (step === LAST_STEP) saved = await repo.transitionLocked(trx, CLIENTE, saved, { type: view.fasi.form });
        const open = phaseOf(saved);
        return open ? present(saved, given, open) : { id: saved.id };
      });
      reply.code(201);
      return { message: step === LAST_STEP ? 'Grazie! I tuoi dati sono stati inviati.' : 'Dati salvati.', data: { model } };
    });

    // ---- Documents (spec 001 §3, §5): the categories the customer may fill, at most publicMaxCount files each ----
    const media = def.resource.media!;
    const MB = 1024 * 1024;
    /** Collections open to the customer: those with a public maximum, per model (Quotazione, or Veicolo for each vehicle). */
    function categories() {
      const own = Object.entries(media.collections).filter(([, c]) => c.publicMaxCount).map(([name, c]) => ({ name, title: c.title, max: c.publicMaxCount!, model: media.model, types: c.types }));
      const items = (media.items ?? []).flatMap((item) => Object.entries(item.collections).filter(([, c]) => c.publicMaxCount)
        .map(([name, c]) => ({ name, title: c.title, max: c.publicMaxCount!, model: item.model, field: item.field, types: c.types })));
      return [...own, ...items];
    }
    const documents = async (id: number) => (await listDocuments(db, { resource: def.name, id }))
      .filter((m) => categories().some((c) => c.name === m.collection_name))
      .map((m: MediaRecord) => ({
        id: Number(m.id), name: m.name, collection_name: m.collection_name, item_model: m.item_model, item_id: m.item_id, mime_type: m.mime_type, size: Number(m.size),
        // What the customer uploaded through the link is theirs to remove (the route checks it again).
        rimovibile: m.created_by_name === CLIENTE.name,
      }));

    await app.register(async (uploads) => {
      await uploads.register(multipart, { limits: { fileSize: 1024 * MB, files: 1, fields: 10, parts: 12, fieldSize: 1000 } } as Parameters<typeof multipart>[1]);
      // The documents issue's upload (streamed, type from the bytes, all or nothing) with the customer's own checks.
      uploads.post('/api/cliente/quotazione/upload/:uuid', { schema: { params: uuidParam, querystring } }, async (request, reply) => {
        const { uuid } = request.params as { uuid: string };
        await limit(request, reply, uuid);
        noStore(reply);
        const early = await findOpen(db, uuid, false);
        if (early.phase !== 'documenti') throw new HttpError(409, 'Completa prima il modulo con i tuoi dati.');
        const stored = await acceptUpload(app.ctx, request, {
          collections: new Map(categories().map((c) => [c.name, collectionOf(c.name, c.model)])),
          audience: 'public',
          user: { id: 0, name: CLIENTE.name },
          async resolve(trx, fields) {
            const { row, phase } = await findOpen(trx, uuid, true);
            if (phase !== 'documenti' || !workflow.can(Number(row[workflow.statusField]), CLIENTE, row, { type: media.events?.upload ?? '' })) throw invalidLink();
            const model = fields.model?.trim() || media.model;
            const collectionName = (fields.collection ?? fields.collection_name)!;
            const category = categories().find((c) => c.name === collectionName && c.model === model);
            if (!category) throw invalid({ collection: ['Categoria di documento non valida.'] });
            let owner: OwnerRef = { resource: def.name, id: Number(row.id) };
            if (model !== media.model) {
              const rows = (row[(category as { field?: string }).field!] ?? []) as Array<Record<string, unknown>>;
              if (!fields.id || !rows.some((v) => v.id === fields.id)) throw invalid({ id: ['Veicolo non trovato.'] });
              owner = { ...owner, itemModel: model, itemId: fields.id };
            }
            return { owner, collection: collectionOf(collectionName, model), collectionName };
          },
        });
        reply.code(201);
        return { message: UPLOADED, data: { media: { id: Number(stored.id), name: stored.name, collection_name: stored.collection_name, item_id: stored.item_id, mime_type: stored.mime_type } } };
      });
    });
    // A wrong upload removed by the customer while the documents are still theirs to load: only a file they uploaded
    // through this link, in a category open to them; any other id answers 404 and nothing changes.
    app.delete('/api/cliente/quotazione/:uuid/documenti/:id', {
      schema: { params: { type: 'object', properties: { uuid: { type: 'string' }, id: { type: 'string', maxLength: 12 } }, required: ['uuid', 'id'] }, querystring },
    }, async (request, reply) => {
      const { uuid, id } = request.params as { uuid: string; id: string };
      await limit(request, reply, uuid);
      noStore(reply);
      const notFound = () => new HttpError(404, 'Documento non trovato.');
      if (!/^[1-9]\d{0,11}$/.test(id)) throw notFound();
      await mediaTransaction(db, async (trx) => {
        const { row, phase } = await findOpen(trx, uuid, true);
        if (phase !== 'documenti') throw new HttpError(409, 'Completa prima il modulo con i tuoi dati.');
        if (!workflow.can(Number(row[workflow.statusField]), CLIENTE, row, { type: media.events?.upload ?? '' })) throw invalidLink();
        const m = (await sql<{ id: number; collection_name: string; created_by: number | null; created_by_name: string | null }>`
          SELECT id, collection_name, created_by, created_by_name FROM media
          WHERE id = ${Number(id)} AND owner_resource = ${def.name} AND owner_id = ${Number(row.id)} FOR UPDATE`.execute(trx)).rows[0];
        const mine = m && m.created_by === null && m.created_by_name === CLIENTE.name && categories().some((c) => c.name === m.collection_name);
        if (!mine) throw notFound();
        await app.ctx.media.deleteDocument(trx, Number(m.id));
      });
      return { message: 'Documento rimosso.' };
    });
    const collectionOf = (name: string, model: string): MediaCollectionConfig =>
      model === media.model ? media.collections[name]! : (media.items ?? []).find((i) => i.model === model)!.collections[name]!;

    // A notice in force for this link's product, to read before consenting; any other document answers 404.
    app.get('/api/cliente/quotazione/:uuid/informative/:id', {
      schema: { params: { type: 'object', properties: { uuid: { type: 'string' }, id: { type: 'string', maxLength: 12 } }, required: ['uuid', 'id'] }, querystring },
    }, async (request, reply) => {
      const { uuid, id } = request.params as { uuid: string; id: string };
      await limit(request, reply, uuid);
      const { row } = await findOpen(db, uuid, false);
      const notice = (await noticesFor(db, row)).find((n) => String(n.id) === id);
      const m = notice ? await findDocument(db, notice.id) : undefined;
      if (!m) throw new HttpError(404, 'Documento non trovato.');
      return sendDocument(reply, app.ctx, m);
    });

    app.post('/api/cliente/quotazione/terminaCaricamento/:uuid', { schema: { params: uuidParam, querystring } }, async (request, reply) => {
      const { uuid } = request.params as { uuid: string };
      await limit(request, reply, uuid);
      noStore(reply);
      await db.transaction().execute(async (trx) => {
        const { row, phase } = await findOpen(trx, uuid, true);
        if (phase !== 'documenti') throw new HttpError(409, 'Completa prima il modulo con i tuoi dati.');
        await repo.transitionLocked(trx, CLIENTE, row, { type: view.fasi.documenti });
      });
      reply.code(201);
      return { message: 'Caricamento dei documenti terminato. Grazie!' };
    });
  });
  // Staff read the consent records of a quotation (the evidence), within their row scope.
  app.extensions.routes('quotazione-consensi', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('quotazione')!;
    const repo = new ResourceRepository(def, app.ctx);
    const workflow: Workflow = app.ctx.workflows.get(def.resource.workflow!.machine)!;

    // The customer's personal link as the machine's e-mail carries it, while the customer may still use it (else url null).
    app.get('/api/quotazioni/:id/linkCliente', {
      preHandler: requirePermission(def.resource.permissions.read),
      schema: {
        tags: ['quotazione'], summary: 'Link personale del cliente, finché il cliente può usarlo', params: ID_PARAMS,
        response: {
          200: {
            type: 'object', required: ['data'],
            properties: {
              data: {
                type: 'object', required: ['url', 'fase', 'email'],
                properties: {
                  url: { type: ['string', 'null'] },
                  fase: { anyOf: [{ type: 'string', enum: ['form', 'documenti'] }, { type: 'null' }] },
                  email: { type: ['string', 'null'] },
                },
              },
            },
          },
          ...errorResponses(401, 403, 404),
        },
      },
    }, async (request, reply) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
      const record = await repo.get(app.ctx.db, request.user, id);
      reply.header('cache-control', 'no-store');
      const fase = customerPhase(workflow, record) ?? null;
      const appUrl = workflow.definition.meta.templateValues?.APP_URL ?? app.ctx.config.APP_URL;
      const url = fase && record.uuid ? `${appUrl}/quotazione/cliente/${encodeURIComponent(String(record.uuid))}` : null;
      return { data: { url, fase, email: (record.email as string | null | undefined) ?? null } };
    });

    app.get('/api/quotazioni/:id/consensi', {
      preHandler: requirePermission(def.resource.permissions.read),
      schema: { params: ID_PARAMS },
    }, async (request) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
      await repo.get(app.ctx.db, request.user, id);
      const rows = await app.ctx.db.selectFrom('quotazione_consenso')
        .select(['id', 'consenso', 'versione', 'testo', 'risposta', 'uuid', 'indirizzo', 'user_agent', 'registrato_il', 'informative', 'origine'])
        .where('quotazione_id', '=', id).orderBy('id').execute();
      return { data: rows };
    });
    // The same evidence kept with the customer: it outlives the quotation it was given on.
    const clienteDef = app.ctx.definitions.resources.get('cliente')!;
    const clienti = new ResourceRepository(clienteDef, app.ctx);
    app.get(`${clienteDef.resource.api.path}/:id/consensi`, {
      preHandler: requirePermission(clienteDef.resource.permissions.read),
      schema: { params: ID_PARAMS },
    }, async (request) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(clienteDef));
      await clienti.get(app.ctx.db, request.user, id);
      const rows = await app.ctx.db.selectFrom('quotazione_consenso')
        .select(['id', 'quotazione_id', 'consenso', 'versione', 'testo', 'risposta', 'uuid', 'indirizzo', 'user_agent', 'registrato_il', 'informative', 'origine'])
        .where('cliente_id', '=', id).orderBy('id').execute();
      return { data: rows };
    });
  });
}
