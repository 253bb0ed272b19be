// Writes the server makes on the user's behalf (registry data, side effects, server-owned fields) go through the
// repository like a PUT: the merged record validated (422, nothing written), the version checked, a history row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { ResourceRepository } from '../../src/server/resources/repository.ts';
import { completaRegistri, EVENTO_DATI_REGISTRI } from '../../src/server/domains/polizza_auto_storica/idoneita.ts';
import { SandboxRegistri } from '../../src/server/adapters/registri/sandbox.ts';
import type { RegistriAdapter, RichiestaRegistro } from '../../src/server/adapters/registri/types.ts';
import type { AuthUser } from '../../src/server/auth/user.ts';
import { SUPER_ADMIN } from '../../src/shared/permissions.ts';
import { Workflow, type WorkflowDefinition } from '../../src/shared/workflow/machine.ts';

let t: TestApp;
let token: string;
let repo: ResourceRepository;
const USER: AuthUser = { id: 1, email: ADMIN.email, name: 'Amministratore', collaboratore_id: null, tokenId: 0, roles: [SUPER_ADMIN], permissions: [] };

async function quotazione(targa: string) {
  const res = await t.call('POST', '/api/quotazioni', { token, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', cfisc: 'RSSMRA70A01H501S', provincia_codice: 'RM',
    veicoli_storici: [{ marca: 'Fiat', modello: '500 F', anno: 1968, targa }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model as { id: number; version: number };
}

const stored = async (id: number) => (await sql<Record<string, any>>`SELECT * FROM quotazione WHERE id = ${id}`.execute(t.connection.db)).rows[0]!;
const history = async (id: number) => (await sql<{ event: string; from_status: number; to_status: number; note: string | null; user_name: string }>`
  SELECT event, from_status, to_status, note, user_name FROM workflow_history WHERE resource = 'quotazione' AND record_id = ${id} ORDER BY id`.execute(t.connection.db)).rows;

/** The sandbox's answer, with some of it changed (a registry answering something the schema refuses). */
function registri(change: (richiesta: RichiestaRegistro) => Promise<void> | void = () => undefined, patch: (d: any) => void = () => undefined): RegistriAdapter {
  const sandbox = new SandboxRegistri();
  return {
    async interroga(richiesta) {
      const dati = structuredClone(await sandbox.interroga(richiesta));
      patch(dati);
      await change(richiesta);
      return dati;
    },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login(ADMIN.email, ADMIN.password);
  const def = t.app.ctx.definitions.resources.get('quotazione')!;
  repo = new ResourceRepository(def, t.app.ctx, undefined, t.app.ctx.workflows.get(def.resource.workflow!.machine));
});
afterAll(() => t?.close());

describe('registry data completed before an issue (completaRegistri)', () => {
  it('stores the answers through the repository: version bumped, a DATI_REGISTRI history row', async () => {
    const q = await quotazione('AB123CD');
    const before = await stored(q.id);
    await completaRegistri({ db: t.connection.db, registri: registri(), repo }, USER, q.id);
    const after = await stored(q.id);
    expect(after.version).toBe(before.version + 1);
    expect(after.veicoli_storici[0]).toMatchObject({ targa: 'AB123CD', json: { result: expect.any(Number) } });
    expect((await history(q.id)).at(-1)).toMatchObject({
      event: EVENTO_DATI_REGISTRI, from_status: before.stato_quotazione_id, to_status: before.stato_quotazione_id, user_name: USER.name,
      note: expect.stringContaining('AB123CD'),
    });
    // Nothing missing any more: a second run asks nothing and writes nothing.
    await completaRegistri({ db: t.connection.db, registri: registri(), repo }, USER, q.id);
    expect((await stored(q.id)).version).toBe(after.version);
  });

  it('an answer that would make the record invalid is refused at its field, nothing written', async () => {
    const q = await quotazione('AB124CD');
    const before = await stored(q.id);
    const troppoLungo = registri(undefined, (d) => {
      d.ResponseAtrcMain = { ...(d.ResponseAtrcMain ?? {}), beneficiaryFirstName: 'X'.repeat(300) };
    });
    const error = await completaRegistri({ db: t.connection.db, registri: troppoLungo, repo }, USER, q.id).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 422 });
    expect(Object.keys((error as { errors: Record<string, string[]> }).errors)).toEqual(['veicoli_storici.0.atrc_beneficiary_first_name']);
    const after = await stored(q.id);
    expect(after.version).toBe(before.version);
    expect(after.veicoli_storici).toEqual(before.veicoli_storici);
    expect((await history(q.id)).map((h) => h.event)).not.toContain(EVENTO_DATI_REGISTRI);
  });

  it('an edit made while the registries answer takes the version check: 409, the edit kept, no registry data', async () => {
    const q = await quotazione('AB125CD');
    const concorrente = registri(async () => {
      const res = await t.call('PUT', `/api/quotazioni/${q.id}`, { token, body: { version: q.version, telefono: '+39 333 1234567' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    const error = await completaRegistri({ db: t.connection.db, registri: concorrente, repo }, USER, q.id).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 409 });
    const after = await stored(q.id);
    // The edit's number, stored without its spaces.
    expect(after.telefono).toBe('+393331234567');
    expect(after.version).toBe(q.version + 1);
    expect(after.veicoli_storici[0].json).toBeUndefined();
  });
});

describe('server-owned fields written by updateOwned', () => {
  it('are validated with the record: an invalid value is refused with 422 and nothing is written', async () => {
    const q = await quotazione('AB126CD');
    const error = await repo.updateOwned(t.connection.db, USER, q.id, { colore: 'viola' }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 422 });
    expect(Object.keys((error as { errors: Record<string, string[]> }).errors)).toContain('colore');
    expect(await stored(q.id)).toMatchObject({ colore: null, version: q.version });
    const ok = await repo.updateOwned(t.connection.db, USER, q.id, { colore: 'v' });
    expect(ok).toMatchObject({ colore: 'v', version: q.version + 1 });
  });

  it('take the version check when the request named one', async () => {
    const q = await quotazione('AB127CD');
    const error = await repo.updateOwned(t.connection.db, USER, q.id, { colore: 'g' }, { version: q.version - 1 }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 409 });
    expect((await stored(q.id)).colore).toBeNull();
  });
});

describe('transitions and their side effects', () => {
  it('a transition on a record that no longer validates is refused with 422: no status, no history written', async () => {
    const q = await quotazione('AB128CD');
    // A value stored before the rule existed (or by a write that skipped validation): the next write must not carry it on.
    await sql`UPDATE quotazione SET provincia_codice = ${'X'.repeat(318)} WHERE id = ${q.id}`.execute(t.connection.db);
    const righe = (await history(q.id)).length;
    const error = await repo.transition(t.connection.db, USER, q.id, { type: 'SALVA' }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 422 });
    expect(Object.keys((error as { errors: Record<string, string[]> }).errors)).toEqual(['provincia_codice']);
    expect((await stored(q.id)).version).toBe(q.version);
    expect(await history(q.id)).toHaveLength(righe);
  });

  it('an action writes its record through ctx.write: validated (422 rolls the whole transition back) and versioned', async () => {
    const definition = structuredClone(repo.workflow!.definition) as WorkflowDefinition;
    const salva = definition.states.bozza!.on!.SALVA as { actions?: Array<{ type: string; params?: Record<string, unknown> }> };
    salva.actions = [{ type: 'provaScritturaPerConto' }];
    let colore = 'viola';
    t.app.ctx.extensions.workflowAction('provaScritturaPerConto', async (_params, ctx) => {
      await ctx.write!({ colore }, { event: 'PROVA', note: `colore ${colore}` });
    });
    const def = t.app.ctx.definitions.resources.get('quotazione')!;
    const conAzione = new ResourceRepository(def, t.app.ctx, undefined, new Workflow(definition));
    const q = await quotazione('AB129CD');
    const righe = (await history(q.id)).length;
    const refused = await conAzione.transition(t.connection.db, USER, q.id, { type: 'SALVA' }).then(() => undefined, (e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 422, errors: { colore: expect.any(Array) } });
    expect(await stored(q.id)).toMatchObject({ version: q.version, colore: null });
    expect(await history(q.id)).toHaveLength(righe);
    colore = 'g';
    const model = await conAzione.transition(t.connection.db, USER, q.id, { type: 'SALVA' });
    // The transition's own write and the action's: two versions, two history rows.
    expect(model).toMatchObject({ colore: 'g', version: q.version + 2 });
    expect((await history(q.id)).slice(righe).map((h) => [h.event, h.note])).toEqual([['SALVA', null], ['PROVA', 'colore g']]);
  });
});
