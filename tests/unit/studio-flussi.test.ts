// The studio's workflows: the diagram's layout, the lint in Italian, and what adding a state or a guard writes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileGuardia, fileStato, lintFlusso, schemaFlusso, transizioniScelte } from '../../src/shared/definitions/studio/flussi.ts';
import { ordineAnteprima, risorseToccate } from '../../src/shared/definitions/studio/anteprima.ts';
import { H, W, disegnoFlusso, overlaps, xy } from '../../src/shared/definitions/studio/disegno.ts';
import { guardsWith } from '../../src/shared/workflow/guards.ts';
import { QUOTAZIONE_GUARDS } from '../../src/shared/domains/quotazione/guards.ts';

const machine = JSON.parse(readFileSync(new URL('../../workflows/quotazione_auto_storica.json', import.meta.url), 'utf8'));
const implemented = { guards: Object.keys(guardsWith(QUOTAZIONE_GUARDS)), actions: ['inviaEmail', 'esitoDocumenti', 'documentiEmissione'] };

describe('schemaFlusso', () => {
  it('puts the initial state in column 0, its targets by BFS depth, self-loops in the box and root events apart', () => {
    const s = schemaFlusso(machine);
    const bozza = s.nodi.find((n) => n.stato === 'bozza')!;
    expect(bozza).toMatchObject({ colonna: 0, iniziale: true, finale: false });
    expect(bozza.restano).toContain(machine.meta.events.SALVA.label);
    expect(s.nodi.find((n) => n.stato === 'in_attesa_di_deroga')!.colonna).toBe(1);
    expect(s.nodi.find((n) => n.stato === 'bozza_rinnovo')!.colonna).toBe(0);
    const approva = s.archi.find((a) => a.evento === 'APPROVA')!;
    expect(approva).toMatchObject({ da: 'in_attesa_di_deroga', a: 'quotazione_approvata', permessi: ['show_quotazioni_suoi_collaboratori'] });
    expect(approva.guardia).toBe('permesso show_quotazioni_suoi_collaboratori');
    expect(s.archi.some((a) => a.da === a.a)).toBe(false);
    expect(s.globali.length).toBe(1);
  });

  it('marks a state with no way out as final, an unreachable one in the last column', () => {
    const s = schemaFlusso(fileStato(machine, { stato: 'sospesa', nome: 'Sospesa' }));
    const n = s.nodi.find((x) => x.stato === 'sospesa')!;
    expect(n.finale).toBe(true);
    expect(n.colonna).toBe(Math.max(...s.nodi.map((x) => x.colonna)));
  });
});

describe('lintFlusso', () => {
  it('is empty for the machine as delivered', () => {
    expect(lintFlusso(machine, implemented)).toEqual([]);
  });

  it('says in Italian that a new state nobody reaches is unreachable, and nothing once a transition reaches it', () => {
    expect(lintFlusso(fileStato(machine, { stato: 'sospesa', nome: 'Sospesa' }), implemented))
      .toEqual(['Lo stato «Sospesa» non è raggiungibile da «Bozza»: aggiungi una transizione che vi arrivi.']);
    const ok = fileStato(machine, { stato: 'sospesa', nome: 'Sospesa', da: 'bozza', evento: 'SOSPENDI', etichetta: 'Sospendi', permesso: 'conferma_quotazione' });
    expect(lintFlusso(ok, implemented)).toEqual([]);
    expect(ok.states.sospesa.meta).toEqual({ id: 14, code: '14', nome: 'Sospesa' });
    expect(ok.states.bozza.on.SOSPENDI).toEqual({ guard: { type: 'hasPermission', params: { permission: 'conferma_quotazione' } }, target: 'sospesa' });
    expect(ok.meta.events.SOSPENDI).toEqual({ label: 'Sospendi', route: 'sospendi' });
  });

  it('translates an empty label and an unimplemented guard', () => {
    const bad = fileStato(machine, { stato: 'sospesa', nome: 'Sospesa', da: 'bozza', evento: 'SOSPENDI', etichetta: ' ', permesso: 'x' });
    bad.states.bozza.on.SOSPENDI.guard = { type: 'inventata' };
    const problems = lintFlusso(bad, implemented);
    expect(problems).toContain('L\'evento SOSPENDI ha l\'etichetta vuota.');
    expect(problems).toContain('«Bozza», evento SOSPENDI: la condizione «inventata» non è implementata.');
    expect(problems.every((p) => !/ is | has /.test(p))).toBe(true);
  });
});

describe('fileGuardia', () => {
  it('adds a guard beside the existing one under all, with its parameter', () => {
    const approva = transizioniScelte(machine).find((t) => t.const.startsWith('in_attesa_di_deroga|APPROVA|'))!;
    const next = fileGuardia(machine, { transizione: approva.const, guardia: 'notaPresente' }) as Record<string, any>;
    expect(next.states.in_attesa_di_deroga.on.APPROVA.guard).toEqual({ type: 'all', params: { guards: [{ type: 'hasPermission', params: { permission: 'show_quotazioni_suoi_collaboratori' } }, { type: 'notaPresente' }] } });
    expect(lintFlusso(next, implemented)).toEqual([]);
    expect(fileGuardia(machine, { transizione: approva.const, guardia: 'lacksPermission' })).toBe('Scegli il permesso della condizione.');
    const conferma = fileGuardia(machine, { transizione: 'bozza|CONFERMA|1', guardia: 'statoSotto', stato: 5 }) as Record<string, any>;
    expect(conferma.states.bozza.on.CONFERMA[1].guard.params.guards.at(-1)).toEqual({ type: 'statoSotto', params: { stato: 5 } });
    expect(conferma.states.bozza.on.CONFERMA[0]).toEqual(machine.states.bozza.on.CONFERMA[0]);
  });
});

describe('risorseToccate', () => {
  it('names the resources whose entity, list, form or settings a draft changes, once each, and no workflow', () => {
    const changed = { 'schemas/cliente/entity.schema.json': {}, 'schemas/cliente/list.json': {}, 'schemas/polizza/form.ui.json': {}, 'workflows/x.json': {}, 'schemas/_shared/menu.json': {} };
    expect(risorseToccate(changed)).toEqual(['cliente', 'polizza']);
  });
});

describe('disegnoFlusso', () => {
  it('draws one line per pair of states and puts every label where no other label nor any box is, inside the drawing', () => {
    for (const m of [machine, fileStato(machine, { stato: 'sospesa', nome: 'Sospesa', da: 'bozza', evento: 'SOSPENDI', etichetta: 'Sospendi', permesso: 'conferma_quotazione' })]) {
      const schema = schemaFlusso(m);
      const { frecce, width, height } = disegnoFlusso(schema);
      expect(frecce).toHaveLength(schema.archi.length);
      const lines = frecce.filter((f) => f.d);
      expect(lines).toHaveLength(new Set(schema.archi.map((a) => `${a.da}>${a.a}`)).size);
      const boxes = schema.nodi.map((n) => ({ ...xy(n), w: W, h: H }));
      frecce.forEach((f, i) => {
        expect(boxes.some((b) => overlaps(b, f.box)), f.arco.id).toBe(false);
        expect(frecce.slice(i + 1).some((g) => overlaps(g.box, f.box)), f.arco.id).toBe(false);
        expect(f.box.x >= 0 && f.box.y >= 0 && f.box.x + f.box.w <= width && f.box.y + f.box.h <= height, f.arco.id).toBe(true);
      });
      // The same machine, the same drawing.
      expect(disegnoFlusso(schemaFlusso(m))).toEqual({ frecce, width, height });
    }
  });
});

describe('ordineAnteprima', () => {
  const served = { cognome: { type: 'string' }, nascita: { type: 'string', format: 'date' }, password: { type: 'string', writeOnly: true }, veicoli: { type: 'array' }, toString: undefined as never };
  it("keeps the draft's order where the served list sorts by every key of it", () => {
    expect(ordineAnteprima('-cognome', served)).toBe('-cognome');
    expect(ordineAnteprima('cognome,-nascita', served)).toBe('cognome,-nascita');
    expect(ordineAnteprima('-id', served)).toBe('-id');
  });
  it('falls back to the served default for a field not served yet, an array, a write-only field or none', () => {
    expect(ordineAnteprima('nuovo_campo', served)).toBeUndefined();
    expect(ordineAnteprima('cognome,-nuovo_campo', served)).toBeUndefined();
    expect(ordineAnteprima('veicoli', served)).toBeUndefined();
    expect(ordineAnteprima('password', served)).toBeUndefined();
    expect(ordineAnteprima('constructor', served)).toBeUndefined();
    expect(ordineAnteprima(undefined, served)).toBeUndefined();
  });
});
