// Registry data of historic vehicles (spec 001 §4, §7): refresh a stored vehicle, or enrich one not yet saved.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { HttpError, invalid, notFoundFor } from '../../errors.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { registriAdapter } from '../../adapters/registri/index.ts';
import { RegistroNonDisponibile, type RegistriAdapter } from '../../adapters/registri/types.ts';
import { campiRegistro, contraenteDi, type Persona } from '../../../shared/registri.ts';

const TIPI_ANIA = ['A', 'B', 'C', 'M', 'Q', 'R', 'S', 'T', 'W', 'Z'];
const TARGA_TROPPO_CORTA = 'Devi compilare la targa per aggiornare i dati ania';

const paramsSchema = (withId: boolean) => ({
  type: 'object',
  required: [...(withId ? ['id'] : []), 'plate', 'type'],
  properties: {
    ...(withId ? { id: { type: 'string', minLength: 1, maxLength: 64 } } : {}),
    plate: { type: 'string', minLength: 1, maxLength: 12 },
    type: { type: 'string', enum: TIPI_ANIA },
  },
});

function targaValida(plate: string): string {
  const targa = plate.trim().toUpperCase();
  // The refresh needs a whole plate (spec 001 §5).
  if (targa.length <= 5) throw invalid({ targa: [TARGA_TROPPO_CORTA] });
  return targa;
}

async function interroga(adapter: RegistriAdapter, targa: string, tipologia: string, contraente: Persona) {
  try {
    return await adapter.interroga({ targa, tipologia, codiceFiscaleContraente: contraente.codice_fiscale ?? undefined });
  } catch (error) {
    if (error instanceof RegistroNonDisponibile) throw new HttpError(503, error.message);
    throw error;
  }
}

/** `override`: a test's own adapter; else the configured one. */
export function registriRoutes(override?: RegistriAdapter) {
  return async (app: FastifyInstance) => {
    const adapter = override ?? registriAdapter(app.ctx.config);
    const def = app.ctx.definitions.resources.get('quotazione')!;
    const workflow = app.ctx.workflows.get(def.resource.workflow!.machine);
    const repo = new ResourceRepository(def, app.ctx, undefined, workflow);

    // {id} is the historic vehicle's row id; its quotation must be in the user's scope and editable.
    app.post<{ Params: { id: string; plate: string; type: string } }>('/api/veicolo_update_dati_ania/:id/:plate/:type', {
      schema: { params: paramsSchema(true) },
      preHandler: requirePermission(def.resource.permissions.update),
    }, async (request) => {
      const { id, plate, type } = request.params;
      const targa = targaValida(plate);
      // A row id names one row of one quotation (veicoli.ts); rows copied before that rule (an older renewal) are the
      // newest quotation's, the one still being edited.
      const found = await sql<{ id: number }>`SELECT id FROM quotazione WHERE quotazione_veicoli_ids(veicoli_storici) && ARRAY[${id}]::text[]
        ORDER BY id DESC LIMIT 1`.execute(app.ctx.db);
      const quotazioneId = found.rows[0]?.id;
      if (!quotazioneId) throw notFoundFor({ resource: { singular: 'Veicolo', feminine: false } });
      const quotazione = await repo.get(app.ctx.db, request.user, quotazioneId);
      const dati = await interroga(adapter, targa, type, contraenteDi(quotazione));
      let veicolo: Record<string, unknown> | undefined;
      // Merged under the row lock, so an edit made meanwhile to other vehicles is kept.
      const model = await repo.updateOwned(app.ctx.db, request.user, quotazioneId, (before) => {
        const veicoli = ((before.veicoli_storici ?? []) as Array<Record<string, unknown>>).map((v) => {
          if (v.id !== id) return v;
          veicolo = { ...v, targa, tipologia_ania: type, ...campiRegistro(contraenteDi(before), dati, type) };
          return veicolo;
        });
        if (!veicolo) throw notFoundFor({ resource: { singular: 'Veicolo', feminine: false } });
        return { veicoli_storici: veicoli };
      });
      return { result: dati.result, ...(dati.Error ? { Error: dati.Error } : {}), data: veicolo, model };
    });

    // A vehicle not yet saved: the answer is the vehicle with the registry data merged in, nothing is stored.
    app.post<{ Params: { plate: string; type: string }; Body: { quotazione_id?: number; contraente?: Persona; [k: string]: unknown } | undefined }>('/api/ciccio/:plate/:type', {
      schema: {
        params: paramsSchema(false),
        body: {
          type: 'object',
          properties: {
            quotazione_id: { type: 'integer', minimum: 1, maximum: 2147483647 },
            contraente: {
              type: 'object',
              additionalProperties: false,
              properties: { nome: { type: ['string', 'null'], maxLength: 200 }, cognome: { type: ['string', 'null'], maxLength: 200 }, codice_fiscale: { type: ['string', 'null'], maxLength: 16 } },
            },
          },
        },
      },
      preHandler: requirePermission(def.resource.permissions.read),
    }, async (request) => {
      const { plate, type } = request.params;
      const targa = targaValida(plate);
      const { quotazione_id, contraente: dichiarato, ...veicolo } = request.body ?? {};
      const contraente = quotazione_id ? contraenteDi(await repo.get(app.ctx.db, request.user, quotazione_id)) : dichiarato ?? {};
      const dati = await interroga(adapter, targa, type, contraente);
      return { result: dati.result, ...(dati.Error ? { Error: dati.Error } : {}), data: { ...veicolo, targa, tipologia_ania: type, ...campiRegistro(contraente, dati, type) } };
    });
  };
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('quotazione/registri', registriRoutes());
}
