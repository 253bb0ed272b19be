// The public view's pure parts: the schema from entity + view, the step schemas, the rules both sides run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv, compileValidator } from '../../src/shared/validation.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { consentsOf, fieldsUpTo, publicRules, publicSchema, resizeModerni, type PublicView } from '../../src/shared/domains/quotazione/pubblico.ts';
import { stepSchema } from '../../src/client/pages/quotazione/pubblico/steps.ts';
import type { JsonSchema } from '../../src/shared/definitions/types.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const view = JSON.parse(readFileSync(path.join(ROOT, 'schemas/quotazione/public.view.json'), 'utf8')) as PublicView;
const ui = JSON.parse(readFileSync(path.join(ROOT, 'schemas/quotazione/public.ui.json'), 'utf8'));

describe('public view of the quotation', async () => {
  const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
  const entity = definitions.resources.get('quotazione')!.schema;
  const schema = publicSchema(entity, view);
  const validate = compileValidator(createAjv(), schema);

  it('exposes only the view\'s fields, never premiums, notes or the collaborator', () => {
    const names = Object.keys(schema.properties!);
    for (const hidden of ['premio', 'premio_verti', 'premio_forzato', 'competenze', 'note', 'collaboratore_id', 'cliente_id', 'preventivi']) expect(names).not.toContain(hidden);
    expect(schema.properties!.telefono!.format).toBe('telefono-pubblico');
    const vehicle = schema.properties!.veicoli_storici!.items!;
    expect(Object.keys(vehicle.properties!)).toEqual(['id', 'marca', 'modello', 'anno', 'furto', 'targa', 'tipologia_ania', 'quintali']);
    expect(vehicle.properties!.anno).toMatchObject({ type: 'integer', minimum: 1900, 'x-anno-corrente': true });
    expect(vehicle.properties!.marca!.readOnly).toBe(true);
  });

  it('shows the customer no raw id: an id field is hidden, chosen by its title, or shown by a widget that names it', () => {
    // Widgets that show an id as the name it stands for (the municipality's autocomplete shows 'Roma (RM)').
    const NAMING_WIDGETS = new Set(['comune']);
    const shown: string[] = [];
    const check = (props: Record<string, JsonSchema>, fieldsUi: Record<string, Record<string, unknown> | undefined>, prefix: string) => {
      for (const [name, prop] of Object.entries(props)) {
        const fieldUi = fieldsUi[name] ?? {};
        if (!/^id$|_id$/.test(name) || fieldUi['ui:widget'] === 'hidden') continue;
        const titled = Array.isArray(prop.oneOf) && (prop.oneOf as JsonSchema[]).every((o) => typeof o.title === 'string');
        if (!titled && !NAMING_WIDGETS.has(String(prop['x-widget']))) shown.push(`${prefix}${name}`);
      }
    };
    check(schema.properties!, ui, '');
    const vehicle = schema.properties!.veicoli_storici!.items!;
    check(vehicle.properties!, ui.veicoli_storici.items, 'veicoli_storici.');
    expect(shown).toEqual([]);
    // The row id is the customer's to keep, never to edit.
    expect(vehicle.properties!.id!.readOnly).toBe(true);
  });

  it('every step lists known fields; the consents carry a version', () => {
    for (const step of ui['ui:passi']) for (const f of step.fields) expect(schema.properties, f).toHaveProperty(f);
    expect(consentsOf(schema).map(([n, c]) => [n, c.versione])).toEqual([
      ['consenso_trattamento', '2026-11-01'], ['radio1', '2026-11-01'], ['radio2', '2026-11-01'], ['radio3', '2026-11-01'],
      ['consenso_allegati', '2026-11-01'], ['consenso_otp', '2026-11-01'],
    ]);
    expect([...fieldsUpTo(ui['ui:passi'], 2)]).toContain('radio3');
  });

  it('says the spec\'s messages', () => {
    const errors = validate({ persona: 'f', telefono: '+39 333', consenso_trattamento: 'ko', radio1: 'ko', copertura: 'ok', patenti: 6, quotidiano: 2, residenzaCap: '123456' }) ?? {};
    expect(errors.telefono).toEqual(['Formato telefono non valido']);
    expect(errors.consenso_trattamento).toEqual(['Obbligatorio prestare il consenso']);
    expect(errors.radio1).toBeUndefined();
    expect(errors.copertura).toEqual(['Non puoi avere altre coperture assicurative in corso sullo stesso rischio']);
    expect(errors.quotidiano).toEqual(['Il valore minimo è 3']);
    expect(errors.residenzaCap).toBeDefined();
    expect(errors.nome).toEqual(['Campo Obbligatorio.']);
    const abroad = validate({ persona: 'f', nazione_nascita_id: '2' }) ?? {};
    expect(abroad.provincia_nascita_codice).toBeUndefined();
    expect((validate({ persona: 'f', nazione_nascita_id: '1' }) ?? {}).comune_nascita_id).toEqual(['Campo Obbligatorio.']);
  });

  it('vehicle rules and modern rows', () => {
    const all = new Set(['veicoli_storici', 'veicoli_moderni']);
    expect(publicRules({ veicoli_storici: [{ targa: ' AB12 ' }, {}], quotidiano: 2, veicoli_moderni: [{}] }, all)).toEqual({
      'veicoli_storici.0.tipologia_ania': ['non hai compilato la tipologia di veicolo per la targa AB12'],
      'veicoli_storici.1.targa': ['Campo Obbligatorio.'],
      veicoli_moderni: ['Indica i dati di 2 veicoli di uso quotidiano.'],
    });
    expect(resizeModerni([{ marca: 'A' }], 3)).toEqual([{ marca: 'A' }, {}, {}]);
    expect(resizeModerni([{ marca: 'A' }, { marca: 'B' }], 1)).toEqual([{ marca: 'A' }]);
  });

  it('a step\'s schema keeps its fields and narrows choices by the other answers', () => {
    const step4 = stepSchema(schema, ui, ui['ui:passi'][4], { patenti: 6 });
    expect((step4.properties!.quotidiano!.oneOf as Array<{ const: number }>).map((o) => o.const)).toEqual([3, 4, 5, 6]);
    const step1 = stepSchema(schema, ui, ui['ui:passi'][1], { persona: 'g' });
    expect((step1.properties!.attivita_lavorativa!.oneOf as Array<{ title: string }>).map((o) => o.title)).toEqual([
      'Rappresentante di ditta individuale', 'Rappresentante di S.P.A.', 'Rappresentante di S.R.L.', 'Altro',
    ]);
    expect(Object.keys(step1.properties!)).not.toContain('consenso_trattamento');
  });
});
