// The historic-car quotation machine against spec 001 §4: every allowed and every refused transition, per role, from one table.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Workflow, type WorkflowDefinition } from '../../src/shared/workflow/machine.ts';
import { lintWorkflow } from '../../src/shared/workflow/lint.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { collectExtensions } from '../../src/server/extensions.ts';
import { domains } from '../../src/server/domains/index.ts';
import { evaluateGuard, guardsWith, type WorkflowUser } from '../../src/shared/workflow/guards.ts';
import { QUOTAZIONE_GUARDS } from '../../src/shared/domains/quotazione/guards.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const definition: WorkflowDefinition = JSON.parse(readFileSync(path.join(root, 'workflows', 'quotazione_auto_storica.json'), 'utf8'));
const roles: { roles: Array<{ name: string; permissions: string[] }> } = JSON.parse(readFileSync(path.join(root, 'schemas', '_reference', 'ruoli.json'), 'utf8'));
const wf = new Workflow(definition, QUOTAZIONE_GUARDS);
// Domains register their own actions (the contract at the request to issue, the verdict on the documents).
const extensions = await collectExtensions((await loadAll(path.join(root, 'schemas'))).definitions, domains);
const implemented = () => ({ actions: extensions.actionNames(), guards: Object.keys(guardsWith(extensions.guardsFor('quotazione_auto_storica'))) });

type Actor = 'collaboratore' | 'approvatore' | 'staff' | 'super_admin' | 'cliente';
const ACTORS: Actor[] = ['collaboratore', 'approvatore', 'staff', 'super_admin', 'cliente'];
function user(actor: Actor): WorkflowUser {
  if (actor === 'cliente') return { permissions: [], roles: [], kind: 'cliente' };
  return { permissions: roles.roles.find((r) => r.name === actor)!.permissions, roles: [actor], kind: 'staff' };
}

const RECORDS = {
  verde: { colore: 'v', preventivi: [{ premio_totale: 100 }] },
  giallo: { colore: 'g', preventivi: [{ premio_totale: 100 }] },
  minore: { colore: 'v', minoreAnni: true, preventivi: [{ premio_totale: 100 }] },
  nonCalcolata: { colore: 'v', preventivi: [] },
  rinnovata: { colore: 'v', preventivi: [{ premio_totale: 100 }], rinnovo_id: 99 },
} as const;
type Variant = keyof typeof RECORDS;

const EDITORS: Actor[] = ['collaboratore', 'staff', 'super_admin'];
const APPROVERS: Actor[] = ['approvatore', 'staff', 'super_admin'];
const ISSUERS: Actor[] = ['staff', 'super_admin'];
const ANYONE: Actor[] = ACTORS;

// [status id, event, who may, record variants (undefined = every variant), target status id, note sent]
type Row = [number, string, Actor[], Variant[] | undefined, number, boolean?];
const ALLOWED: Row[] = [
  ...[1, 13].flatMap((s): Row[] => [
    [s, 'SALVA', EDITORS, undefined, s],
    [s, 'MODIFICA_PREMIO', EDITORS, undefined, s],
    [s, 'CONFERMA', EDITORS, ['verde', 'rinnovata'], 4],
    [s, 'CONFERMA', EDITORS, ['giallo', 'minore'], 2],
    [s, 'CONFERMA_DIRETTA', EDITORS, ['verde', 'rinnovata'], 12],
    [s, 'ELIMINA', ANYONE, undefined, s],
  ]),
  [2, 'MODIFICA_PREMIO', APPROVERS, undefined, 2],
  [2, 'APPROVA', APPROVERS, undefined, 3],
  [2, 'RIFIUTA', APPROVERS, undefined, 1, true],
  [2, 'ELIMINA', ANYONE, undefined, 2],
  [3, 'CONFERMA', EDITORS, undefined, 4],
  [3, 'CONFERMA_DIRETTA', EDITORS, undefined, 12],
  [3, 'ELIMINA', ANYONE, undefined, 3],
  [12, 'SALVA', EDITORS, undefined, 12],
  [12, 'MODIFICA_PREMIO', EDITORS, undefined, 12],
  [12, 'EMETTI_DIRETTA', EDITORS, undefined, 7],
  [12, 'ELIMINA', ANYONE, undefined, 12],
  [4, 'COMPILAZIONE_CLIENTE', ['cliente'], undefined, 5],
  [4, 'ELIMINA', ANYONE, undefined, 4],
  [5, 'TERMINA_CARICAMENTO', ['cliente', ...EDITORS], undefined, 6],
  // The customer's link e-mailed again while the customer may use it (form or documents), by who confirms quotations.
  ...[4, 5].map((s): Row => [s, 'REINVIA_LINK', EDITORS, undefined, s]),
  [5, 'ELIMINA', ANYONE, undefined, 5],
  [6, 'CONFERMA_DOC', EDITORS, undefined, 7],
  [6, 'REVISIONE_DOC', EDITORS, undefined, 5, true],
  [6, 'ELIMINA', ANYONE, undefined, 6],
  [7, 'RICHIEDI_EMISSIONE', ['collaboratore'], undefined, 8],
  // Issuing (spec 001 §4): ids 7, 8, 11 with emettere_polizza_auto_storica; the insurer's answer is recorded as EMETTI (0),
  // AVVISO_EMISSIONE (1, status unchanged) or ERRORE_EMISSIONE (2, to 11, from which issuing may be retried).
  ...[7, 8, 11].flatMap((s): Row[] => [
    [s, 'SALVA_EMISSIONE', ISSUERS, undefined, s],
    [s, 'ANTEPRIMA_EMISSIONE', ISSUERS, undefined, s],
    [s, 'EMETTI', ISSUERS, undefined, 9],
    [s, 'AVVISO_EMISSIONE', ISSUERS, undefined, s],
    [s, 'ERRORE_EMISSIONE', ISSUERS, undefined, 11],
    [s, 'ELIMINA', ANYONE, undefined, s],
  ]),
  [11, 'APPENDICE', ISSUERS, undefined, 11],
  [11, 'ELIMINA', ANYONE, undefined, 11],
  // Files may change from the approved quotation on (the Documenti tab's statuses); not deleted once at signature.
  ...[3, 12, 4, 5, 6, 7, 8, 9, 10, 11, 13].map((s): Row => [s, 'DOCUMENTO_CARICA', ANYONE, undefined, s]),
  ...[3, 12, 4, 5, 6, 7, 8, 11, 13].map((s): Row => [s, 'DOCUMENTO_ELIMINA', ANYONE, undefined, s]),
  // After issue (above code 8, never 11): renew once, reverse (super_admin), resend to Koala (super_admin, ids 9 and 10).
  ...[9, 10].flatMap((s): Row[] => [
    [s, 'SALVA_EMISSIONE', ISSUERS, undefined, s],
    [s, 'APPENDICE', ISSUERS, undefined, s],
    [s, 'RINNOVA', EDITORS, ['verde', 'giallo', 'minore', 'nonCalcolata'], s],
    [s, 'STORNA', ['super_admin'], undefined, 11],
    [s, 'REINVIA_KOALA', ['super_admin'], undefined, s],
    [s, 'RIGENERA_DOCUMENTI', ISSUERS, undefined, s],
  ]),
  [9, 'FIRMA_COMPLETATA', ISSUERS, undefined, 10],
];

const STATUSES = wf.statuses.map((s) => s.id);
const EVENTS = Object.keys(definition.meta.events).filter((e) => definition.meta.events[e]!.kind !== 'manual');

function expected(status: number, event: string, actor: Actor, variant: Variant): { target: number; note: boolean } | undefined {
  const row = ALLOWED.find(([s, e, who, variants]) => s === status && e === event && who.includes(actor) && (!variants || variants.includes(variant)));
  return row ? { target: row[4], note: row[5] === true } : undefined;
}

describe('workflows/quotazione_auto_storica.json', () => {
  it('passes the lint: statuses reachable, guards and actions implemented, events labelled', () => {
    expect(lintWorkflow(definition, implemented())).toEqual([]);
  });

  it('labels a history-only event (a registry lookup) for the timeline, and refuses one a state uses', () => {
    expect(definition.meta.events.DATI_REGISTRI).toMatchObject({ label: expect.any(String), historyOnly: true });
    const used = structuredClone(definition);
    used.meta.events.DATI_REGISTRI!.historyOnly = true;
    (used.states.bozza!.on ??= {}).DATI_REGISTRI = { target: 'bozza' };
    expect(lintWorkflow(used, implemented())).toContain('L\'evento DATI_REGISTRI è solo storico ma uno stato lo usa.');
  });

  it('has the 13 statuses of spec 001 §4 with their ids and codes', () => {
    expect(wf.statuses.map((s) => [s.id, s.code, s.nome])).toEqual([
      [1, '1', 'Bozza'], [2, '2', 'In attesa di deroga'], [3, '3', 'Quotazione approvata'], [12, '3.5', 'In attesa compilazione diretta'],
      [4, '4', 'In attesa compilazione form'], [5, '5', 'Preventivo in attesa documentazione'], [6, '6', 'Preventivo in attesa di verifica'],
      [7, '7', 'In attesa di emissione'], [8, '8', 'Richiesta emissione'], [9, '9', 'In attesa di firma'], [10, '10', 'Conclusa con successo'],
      [11, '11', 'Conclusa con errore'], [13, '1.5', 'Bozza rinnovo'],
    ]);
  });

  const cases = STATUSES.flatMap((status) => EVENTS.flatMap((event) => ACTORS.flatMap((actor) =>
    (Object.keys(RECORDS) as Variant[]).map((variant) => [status, event, actor, variant] as const))));
  it(`allows exactly the table's transitions (${cases.length} combinations)`, () => {
    const wrong: string[] = [];
    for (const [status, event, actor, variant] of cases) {
      const want = expected(status, event, actor, variant);
      const got = wf.apply(status, user(actor), RECORDS[variant], { type: event, nota: want?.note ? 'Motivo' : undefined });
      const gotTarget = got?.to.id;
      if (gotTarget !== want?.target) wrong.push(`${status} ${event} ${actor} ${variant}: expected ${want?.target ?? 'refused'}, got ${gotTarget ?? 'refused'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('needs a note to reject a derogation or ask for document revision', () => {
    expect(wf.apply(2, user('approvatore'), RECORDS.giallo, { type: 'RIFIUTA' })).toBeUndefined();
    expect(wf.apply(6, user('collaboratore'), RECORDS.verde, { type: 'REVISIONE_DOC', nota: '  ' })).toBeUndefined();
  });

  it('lets only cambiare_stato_quotazione change the status by hand, to any status', () => {
    for (const actor of ACTORS) {
      for (const from of STATUSES) {
        for (const to of STATUSES) {
          const result = wf.apply(from, user(actor), RECORDS.verde, { type: 'CAMBIO_STATO', stato: to });
          expect(result?.to.id, `${actor} ${from}→${to}`).toBe(actor === 'staff' || actor === 'super_admin' ? to : undefined);
        }
      }
    }
  });

  it('sends the customer e-mail when a quotation is confirmed without derogation', () => {
    expect(wf.apply(1, user('collaboratore'), RECORDS.verde, { type: 'CONFERMA' })!.actions).toEqual([{ type: 'inviaEmail', params: { template: 'conferma_cliente' } }]);
    expect(wf.apply(1, user('collaboratore'), RECORDS.giallo, { type: 'CONFERMA' })!.actions).toEqual([]);
  });

  it('warns that a derogation is needed below status 3, and about vehicles in a renewal draft', () => {
    expect(wf.warnings(1, user('collaboratore'), RECORDS.giallo)).toEqual(['Attenzione! Deroga necessaria.']);
    expect(wf.warnings(2, user('collaboratore'), RECORDS.minore)).toEqual(['Attenzione! Deroga necessaria.']);
    expect(wf.warnings(3, user('collaboratore'), RECORDS.giallo)).toEqual([]);
    expect(wf.warnings(1, user('collaboratore'), RECORDS.verde)).toEqual([]);
    expect(wf.warnings(13, user('collaboratore'), RECORDS.verde)).toEqual(['Attenzione controllare se sono stati esclusi o inclusi dei veicoli rispetto alla polizza precedente']);
  });

  it('lists for the client only the events the user may send, with Italian labels', () => {
    const collab = wf.available(1, user('collaboratore'), RECORDS.giallo).map((e) => [e.type, e.meta.label, e.target?.id]);
    expect(collab).toEqual([['SALVA', 'Aggiorna', undefined], ['MODIFICA_PREMIO', 'Modifica premio', undefined], ['ELIMINA', 'Elimina', undefined], ['CONFERMA', 'Conferma', 2]]);
    expect(wf.available(2, user('collaboratore'), RECORDS.giallo).map((e) => e.type)).toEqual(['ELIMINA']);
    expect(wf.available(2, user('approvatore'), RECORDS.giallo).map((e) => e.type)).toEqual(['MODIFICA_PREMIO', 'ELIMINA', 'APPROVA', 'RIFIUTA']);
  });

  it('declares the issue events as dialogs on the routes of spec 001 §7, with their Italian texts; insurer answers are never buttons', () => {
    const ev = definition.meta.events;
    expect(ev.EMETTI).toMatchObject({ dialog: 'emetti', path: '/api/quotazioni/emetti/{id}' });
    expect(ev.EMETTI!.texts).toMatchObject({ successo: 'Polizza emessa correttamente', avviso: 'WARNING ', inCorso: "Attendere la fine dell'operaione in corso", senzaControlloAtrc: 'NON controlla se la polizza precedente è scaduta' });
    expect(ev.SALVA_EMISSIONE).toMatchObject({ label: 'Salva Emissione', path: '/api/update_quotazione_per_emissione/{id}', method: 'PUT' });
    expect(ev.ANTEPRIMA_EMISSIONE!.path).toBe('/api/preview_quotazione_per_emissione/{id}');
    expect(ev.RINNOVA).toMatchObject({ label: 'Rinnova Polizza', path: '/api/quotazioni/rinnovo-polizza/{id}' });
    expect(ev.STORNA).toMatchObject({ label: 'Storna Polizza', path: '/api/storna_emissione/{id}/{verti_policy_number}' });
    expect(ev.REINVIA_KOALA!.path).toBe('/api/polizza_gold/reimporta_emissione_koala_broker/{id}');
    expect(ev.REINVIA_KOALA!.confirm).toMatch(/duplicati/);
    for (const type of ['EMETTI', 'SALVA_EMISSIONE', 'ANTEPRIMA_EMISSIONE', 'RINNOVA', 'STORNA', 'REINVIA_KOALA', 'RIGENERA_DOCUMENTI']) {
      expect(ev[type]!.later, type).toBeUndefined();
      expect(ev[type]!.route, `${type} has its own domain route`).toBeUndefined();
    }
    expect(ev.AVVISO_EMISSIONE!.system).toBe(true);
    expect(ev.ERRORE_EMISSIONE!.system).toBe(true);
    // A super_admin at 9 sees renew, reverse, Koala; staff do not see reverse nor Koala; nobody is offered them at 11.
    const at = (status: number, actor: Actor) => wf.available(status, user(actor), RECORDS.verde).filter((e) => e.meta.dialog).map((e) => e.type).sort();
    expect(at(9, 'super_admin')).toEqual(['REINVIA_KOALA', 'RIGENERA_DOCUMENTI', 'RINNOVA', 'SALVA_EMISSIONE', 'STORNA']);
    expect(at(9, 'staff')).toEqual(['RIGENERA_DOCUMENTI', 'RINNOVA', 'SALVA_EMISSIONE']);
    expect(at(11, 'super_admin')).toEqual(['ANTEPRIMA_EMISSIONE', 'EMETTI', 'SALVA_EMISSIONE']);
    expect(at(7, 'collaboratore')).toEqual([]);
    expect(wf.available(9, user('super_admin'), RECORDS.rinnovata).map((e) => e.type)).not.toContain('RINNOVA');
  });

  it("knows a policy as issued at code above 8 except id 11 (spec 001 §4)", () => {
    const issued = wf.statuses.filter((s) => evaluateGuard({ type: 'polizzaEmessa' }, { context: { user: user('staff'), record: {}, stato: { id: s.id, code: s.code } }, event: { type: '' } }, guardsWith(QUOTAZIONE_GUARDS)));
    expect(issued.map((s) => s.id)).toEqual([9, 10]);
  });

  it('every machine under workflows/ passes the lint', () => {
    for (const file of readdirSync(path.join(root, 'workflows')).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(path.join(root, 'workflows', file), 'utf8'));
      expect(lintWorkflow(json, implemented()), file).toEqual([]);
    }
  });

  it('the lint catches an unimplemented guard, an unknown target and an unlabelled event', () => {
    const broken = structuredClone(definition);
    (broken.states.bozza!.on as Record<string, unknown>).NUOVO = { guard: { type: 'inventato' }, target: 'nessuno' };
    const problems = lintWorkflow(broken, implemented());
    expect(problems).toEqual(expect.arrayContaining([
      '«Bozza»: l\'evento NUOVO non ha un\'etichetta (meta.events).',
      '«Bozza», evento NUOVO: la condizione «inventato» non è implementata.',
      '«Bozza», evento NUOVO: lo stato di arrivo nessuno non esiste.',
    ]));
  });
});
