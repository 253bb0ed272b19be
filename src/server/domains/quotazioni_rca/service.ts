// Fast quotation: request checked (schema, catalogue rules) before any pricing, insurer called behind the adapter, stored in one transaction.
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Database } from '../../db/connection.ts';
import { HttpError, invalid, notFoundFor } from '../../errors.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { lazyValidator, type FieldErrors } from '../../../shared/validation.ts';
import { verifica } from '../../../shared/rca/garanzie.ts';
import { normalizzaRichiesta, verificaRichiesta } from '../../../shared/rca/richiesta.ts';
import { oggiIso } from '../../../shared/dates.ts';
import type { JsonSchema, ResourceDefinition } from '../../../shared/definitions/types.ts';
import { InsurerError, type FastQuotationRequest, type MotorInsurer, type ProposalResponse, type SimulationResponse } from '../../adapters/motor/shapes.ts';
import { clienteDaRichiesta, labelCliente, labelPersona, richiestaDaCliente } from './cliente.ts';

export const RESOURCE = 'quotazioni_rca';
export const BUSY_MESSAGE = "Attendere la fine dell'operaione in corso";
export const NON_DISPONIBILE = 'Quotazione non disponibile';
const SEE_ALL = 'show_tutte_quotazioni';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;

class Rollback extends Error {}

export class QuotazioniRcaService {
  readonly def: ResourceDefinition;
  readonly repo: ResourceRepository;
  private readonly clienti: ResourceRepository;
  private readonly requestSchema: JsonSchema;
  private readonly validateRequest: (data: unknown) => FieldErrors | null;

  /** The customer on file with a codice fiscale, in the user's scope (the customer domain's service). */
  private get inScope() {
    return this.ctx.extensions.serviceOf<(db: Database, clienti: ResourceRepository, user: AuthUser, cf: unknown) => Promise<{ id?: number; outOfScope: boolean }>>('cliente.inScope');
  }

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'definitions' | 'ajv' | 'extensions'>, private readonly insurer: MotorInsurer) {
    const resources = ctx.definitions.resources;
    this.def = resources.get(RESOURCE)!;
    const titleOf = (table: string) => resources.get(table)?.resource.title ?? table;
    this.repo = new ResourceRepository(this.def, ctx, titleOf);
    this.clienti = new ResourceRepository(resources.get('cliente')!, ctx, titleOf);
    this.requestSchema = this.def.schema.properties!.quotation_request!;
    this.validateRequest = lazyValidator(() => ctx.ajv, this.requestSchema);
  }

  private get db(): Database {
    return this.ctx.db;
  }

  /** Canonical request, or 422 at the field that caused it; coverages breaking a catalogue rule are refused naming the coverage. */
  checkRequest(body: unknown): FastQuotationRequest {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid({ _: ['Il corpo della richiesta deve essere un oggetto JSON.'] });
    // Both {quotation_request: {...}} and the bare request are accepted.
    const raw = 'quotation_request' in body ? (body as { quotation_request: unknown }).quotation_request : body;
    const request = normalizzaRichiesta(raw, this.requestSchema) as Record<string, unknown>;
    const errors: FieldErrors = { ...(this.validateRequest(request) ?? {}), ...verificaRichiesta(request ?? {}) };
    if (Object.keys(errors).length) throw invalid(errors);
    const typed = request as unknown as FastQuotationRequest;
    const violations = verifica(typed.coverages, typed.fastFlowData.vehicleCategory);
    if (violations.length) {
      throw invalid({ coverages: violations.map((v) => v.message) }, violations[0]!.message);
    }
    return typed;
  }

  /** The customer, within the customer resource's row scope; out of scope reads as missing. */
  private async cliente(db: Database, user: AuthUser, id: number): Promise<Record<string, unknown>> {
    try {
      return await this.clienti.get(db, user, id);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) throw invalid({ cliente_id: ['Il cliente indicato non esiste.'] });
      throw error;
    }
  }

  private async collaboratoreLabel(db: Database, id: number | null): Promise<string | null> {
    if (!id) return null;
    const row = (await sql<{ label: string }>`SELECT CASE WHEN sesso = 'A' THEN nome ELSE trim(concat_ws(' ', cognome, nome)) END AS label
      FROM collaboratore WHERE id = ${id}`.execute(db)).rows[0];
    return row?.label ?? null;
  }

  /** One request of the user at a time: a second submit while the first runs is refused, not queued. */
  private async busyLock(trx: Trx, user: AuthUser): Promise<void> {
    const row = (await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${`${RESOURCE}:user:${user.id}`})) AS ok`.execute(trx)).rows[0];
    if (!row?.ok) throw new HttpError(409, BUSY_MESSAGE);
  }

  private async price(request: FastQuotationRequest, key: string): Promise<SimulationResponse> {
    try {
      return await this.insurer.fastQuotation(request, { idempotencyKey: key, today: new Date() });
    } catch (error) {
      throw insurerHttpError(error);
    }
  }

  private columns(response: SimulationResponse) {
    const { commonData, quotation } = response.simulation;
    return {
      simulation_number: commonData.simulationNumber,
      quotation_type: commonData.quotationType,
      validity_date: commonData.validityDate,
      simulation_end_date: commonData.simulationEndDate,
      quotation_status: quotation.quotationStatus,
      total_price: quotation.totalPrice,
      quotation_response: response,
    };
  }

  private answer(record: Record<string, unknown>) {
    const response = record.quotation_response as SimulationResponse | null;
    const status = response?.simulation.quotation.quotationStatus;
    return {
      message: status === 'NotAvailable' ? NON_DISPONIBILE : 'Quotazione eseguita.',
      data: { ...record, quotation_response: response },
    };
  }

  /** POST /api/quixa/FastQuotationFlow: priced and stored, or refused with nothing stored. */
  async create(user: AuthUser, body: unknown, clienteId: number | undefined) {
    const request = this.checkRequest(body);
    return this.db.transaction().execute(async (trx) => {
      await this.busyLock(trx, user);
      const cliente = clienteId ? await this.cliente(trx, user, clienteId) : undefined;
      // A collaborator's quotation is theirs; who sees every quotation files it under the customer's collaborator.
      const collaboratoreId = hasPermission(SEE_ALL, user)
        ? ((cliente?.collaboratore_id as number | null | undefined) ?? user.collaboratore_id)
        : user.collaboratore_id;
      if (!hasPermission(SEE_ALL, user) && collaboratoreId === null) throw new HttpError(403, 'Il tuo utente non è collegato a un collaboratore.');
      const response = await this.price(request, `${RESOURCE}:${randomUUID()}`);
      // Stored through the repository: the insurer's answer is validated with the record like any write.
      const inserted = await this.repo.createOwned(trx, user, {
        cliente_id: clienteId ?? null,
        collaboratore_id: collaboratoreId,
        targa: request.fastFlowData.plate,
        vehicle_category: request.fastFlowData.vehicleCategory,
        cliente_label: cliente ? labelCliente(cliente) : labelPersona(request.fastFlowData.personData),
        collaboratore_label: await this.collaboratoreLabel(trx, collaboratoreId),
        quotation_request: request,
        ...this.columns(response),
      });
      return this.answer(await this.repo.get(trx, user, inserted.id as number));
    });
  }

  /** PUT /api/quixa/FastQuotationFlow/{id}: a new simulation for the stored quotation, within its row scope. */
  async update(user: AuthUser, id: number, body: unknown, clienteId: number | undefined) {
    const request = this.checkRequest(body);
    return this.db.transaction().execute(async (trx) => {
      await this.busyLock(trx, user);
      const before = await this.repo.get(trx, user, id);
      const locked = await this.repo.lockRow(trx, id);
      if (before.proposal) throw new HttpError(409, 'La proposta è già stata inviata: la quotazione non si può più aggiornare.');
      const linked = clienteId ?? (before.cliente_id as number | null) ?? undefined;
      const cliente = linked ? await this.cliente(trx, user, linked) : undefined;
      const response = await this.price(request, `${RESOURCE}:${id}:${randomUUID()}`);
      await this.repo.writeOnBehalf(trx, user, locked, {
        cliente_id: linked ?? null,
        targa: request.fastFlowData.plate,
        vehicle_category: request.fastFlowData.vehicleCategory,
        cliente_label: cliente ? labelCliente(cliente) : labelPersona(request.fastFlowData.personData),
        quotation_request: request,
        ...this.columns(response),
      });
      return this.answer(await this.repo.get(trx, user, id));
    });
  }

  async get(user: AuthUser, id: number) {
    const record = await this.repo.get(this.db, user, id);
    return { data: record };
  }

  /** GET /api/search/cliente: customers in the customer row scope, with their daily-use vehicles (spec 002 §3.6). */
  async searchClienti(user: AuthUser, cognomeNome: string, page: number) {
    const list = await this.clienti.list(this.db, user, { page, perPage: 10, sort: ['cognome', 'nome'], search: cognomeNome, filters: [] });
    const ids = list.data.map((c) => c.id as number);
    const veicoli = await this.veicoliModerni(ids);
    return {
      ...list,
      data: list.data.map((c) => {
        const mine = veicoli.get(c.id as number) ?? [];
        return {
          id: c.id, cliente_id: c.id, nome: c.nome, cognome: c.cognome, codice_fiscale: c.cf ?? c.piva ?? null, data_nascita: c.dataNascita,
          veicoli_moderni: mine, veicoli_count: mine.length,
        };
      }),
    };
  }

  /** Daily-use vehicles declared on the customers' historic-car quotations, one per plate (latest quotation wins). */
  private async veicoliModerni(ids: number[]): Promise<Map<number, Array<Record<string, unknown>>>> {
    const out = new Map<number, Array<Record<string, unknown>>>();
    if (!ids.length) return out;
    const rows = (await sql<{ id: number; cliente_id: number; veicoli_moderni: Array<Record<string, unknown>> | null }>`
      SELECT id, cliente_id, veicoli_moderni FROM quotazione WHERE cliente_id = ANY(${ids}::int[]) ORDER BY id DESC`.execute(this.db)).rows;
    for (const row of rows) {
      const list = out.get(row.cliente_id) ?? [];
      (row.veicoli_moderni ?? []).forEach((v, i) => {
        if (list.some((x) => x.targa === v.targa)) return;
        list.push({ veicolo_id: `${row.id}.${i + 1}`, targa: v.targa, marca: v.marca, modello: v.modello, anno: v.anno, quotazione_id: row.id });
      });
      out.set(row.cliente_id, list);
    }
    return out;
  }

  /** POST /api/adapter/quixa/clienteVeicolo/FastQuotationFlow: the request of step 2 from a customer and their vehicle. */
  async requestFor(user: AuthUser, clienteId: number, veicoloId: string | undefined) {
    let cliente: Record<string, unknown>;
    try {
      cliente = await this.clienti.get(this.db, user, clienteId);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) throw notFoundFor(this.clienti.def);
      throw error;
    }
    let veicolo: Record<string, unknown> | undefined;
    if (veicoloId) {
      veicolo = (await this.veicoliModerni([clienteId])).get(clienteId)?.find((v) => v.veicolo_id === veicoloId);
      if (!veicolo) throw invalid({ veicolo_id: ['Il veicolo indicato non appartiene al cliente.'] });
    }
    return { data: { cliente_id: clienteId, veicolo, quotation_request: richiestaDaCliente(cliente, veicolo) } };
  }

  /**
   * POST /api/quixa/Proposal. The idempotency key is stored before the insurer is called; the answer and, for a
   * new client of step 2, the customer record are stored together afterwards, once, whatever the retries.
   */
  async propose(user: AuthUser, quotationNumber: string, sendMailToClient: boolean) {
    const found = (await sql<{ id: number }>`SELECT id FROM ${sql.table(RESOURCE)} WHERE simulation_number = ${quotationNumber}`.execute(this.db)).rows[0];
    // Unknown and someone else's answer alike, so simulation numbers of others leak nothing.
    if (!found) throw notFoundFor(this.def);
    const id = found.id;
    const prepared = await this.db.transaction().execute(async (trx) => {
      await this.busyLock(trx, user);
      const record = await this.repo.get(trx, user, id); // row scope: 404 when not the user's
      const locked = await this.repo.lockRow(trx, id);
      const stored = (await sql<{ proposal: ProposalResponse | null; proposal_key: string | null }>`
        SELECT proposal, proposal_key FROM ${sql.table(RESOURCE)} WHERE id = ${id}`.execute(trx)).rows[0]!;
      if (stored.proposal) return { done: stored.proposal, record };
      if (record.quotation_status !== 'Quoted') throw invalid({ 'proposalData.quotationNumber': [`${NON_DISPONIBILE}: impossibile inviare la proposta.`] });
      if (String(record.simulation_end_date) < oggiIso()) throw invalid({ 'proposalData.quotationNumber': ['La simulazione è scaduta: aggiorna il preventivo.'] });
      if (!record.cliente_id) await this.dryRunCliente(record, user);
      const key = stored.proposal_key ?? `${RESOURCE}:proposal:${randomUUID()}`;
      if (!stored.proposal_key) await this.repo.writeOnBehalf(trx, user, locked, { proposal_key: key });
      return { key, record };
    });
    if ('done' in prepared) return { message: 'Proposta già inviata.', data: { ...prepared.done, cliente_id: prepared.record.cliente_id } };

    let result: ProposalResponse;
    try {
      result = await this.insurer.proposal({ proposalData: { quotationNumber, sendMailToClient } }, { idempotencyKey: prepared.key!, today: new Date() });
    } catch (error) {
      throw insurerHttpError(error);
    }
    return this.db.transaction().execute(async (trx) => {
      const locked = await this.repo.lockRow(trx, id);
      const now = (await sql<{ proposal: ProposalResponse | null; cliente_id: number | null; collaboratore_id: number | null; quotation_request: FastQuotationRequest }>`
        SELECT proposal, cliente_id, collaboratore_id, quotation_request FROM ${sql.table(RESOURCE)} WHERE id = ${id}`.execute(trx)).rows[0]!;
      // A concurrent confirmation stored it first: same key, same answer, nothing written twice.
      if (now.proposal) return { message: 'Proposta già inviata.', data: { ...now.proposal, cliente_id: now.cliente_id } };
      let clienteId = now.cliente_id;
      const changes: Record<string, unknown> = { proposal: result };
      if (!clienteId) {
        const body = await clienteDaRichiesta(trx, now.quotation_request, now.collaboratore_id);
        // A codice fiscale already on file among this user's customers is that customer, not a second one (issue 29).
        const held = await this.inScope(trx, this.clienti, user, body.cf);
        const created = held.id !== undefined ? await this.clienti.get(trx, user, held.id) : await this.createCliente(trx, user, body);
        clienteId = created.id as number;
        Object.assign(changes, { cliente_id: clienteId, cliente_label: labelCliente(created) });
      }
      await this.repo.writeOnBehalf(trx, user, locked, changes);
      return { message: 'Proposta inviata.', data: { ...result, cliente_id: clienteId } };
    });
  }

  private async createCliente(trx: Trx, user: AuthUser, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    try {
      return (await this.clienti.createWithin(trx, user, body)).model;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 422 && error.errors) {
        const errors: FieldErrors = {};
        for (const [field, messages] of Object.entries(error.errors)) errors[`cliente.${field}`] = messages;
        throw invalid(errors, 'I dati del nuovo cliente non sono validi: correggili al passo Quotazione Veloce.');
      }
      throw error;
    }
  }

  /** The new client's record, checked by the customer resource itself (validation, hooks) and rolled back. */
  private async dryRunCliente(record: Record<string, unknown>, user: AuthUser): Promise<void> {
    const body = await clienteDaRichiesta(this.db, record.quotation_request as FastQuotationRequest, record.collaboratore_id as number | null);
    if ((await this.inScope(this.db, this.clienti, user, body.cf)).id !== undefined) return; // reused, not created
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.createCliente(trx, user, body);
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }
}

/** Insurer failures as answers: refusal 422, timeout 504, anything else 502; details go under 'Dettagli'. */
export function insurerHttpError(error: unknown): unknown {
  if (!(error instanceof InsurerError)) return error;
  const status = error.kind === 'refused' ? 422 : error.kind === 'timeout' ? 504 : 502;
  return new HttpError(status, error.message, { compagnia: error.details.length ? error.details : [error.message] }, { details: error.details });
}
