// How a history entry reads to a person: titles (also inside rows), values as the form shows them, references by label.
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { modificaTesto, riferimenti, titoloVoce } from '../../src/client/renderer/storicoTesto.ts';
import type { ResourceDef } from '../../src/client/types.ts';

let resources: ResourceDef[];
const of = (name: string) => resources.find((r) => r.name === name)!;

beforeAll(async () => {
  const definitions = await loadDefinitions(path.resolve('schemas'));
  resources = [...definitions.resources.values()].map((d) => ({ name: d.name, resource: d.resource, schema: d.schema, list: d.list, form: d.form, can: { list: true, read: true, create: true, update: true, delete: true } }));
});

it('reads a field by its title, a money value in Italian, a secret as reserved', () => {
  expect(modificaTesto(of('quotazione'), { campo: 'competenze', da: 10, a: 20 })).toMatch(/^Competenze: 10,00\s€ → 20,00\s€$/);
  expect(modificaTesto(of('cliente'), { campo: 'IBAN', nascosto: true })).toBe('IBAN: valore riservato');
});

it("names a row's field by the row's title and place, and sums up a structure", () => {
  const text = modificaTesto(of('quotazione'), { campo: 'veicoli_storici.1.targa', da: 'AB123CD', a: 'AB123CE' });
  expect(text).toMatch(/^Veicoli.* 2 · Targa: AB123CD → AB123CE$/i);
  expect(modificaTesto(of('quotazione'), { campo: 'veicoli_storici', da: null, a: [{ id: 'a' }, { id: 'b' }] })).toMatch(/: \(vuoto\) → 2 elementi$/);
});

it('reads a reference by the label of its record, and asks for the labels it needs', () => {
  const cliente = of('cliente');
  const labels = new Map([['collaboratore', new Map([['2', 'MARIO ROSSI'], ['3', 'LAURA VERDI']])]]);
  expect(modificaTesto(cliente, { campo: 'collaboratore_id', da: 2, a: 3 }, labels)).toBe('Collaboratore: MARIO ROSSI → LAURA VERDI');
  // Not (yet) labelled: its number, marked as such.
  expect(modificaTesto(cliente, { campo: 'collaboratore_id', da: null, a: 9 })).toBe('Collaboratore: (vuoto) → #9');
  expect(riferimenti(cliente, [{ campo: 'collaboratore_id', da: 2, a: 3 }, { campo: 'nome', da: 'A', a: 'B' }], resources).map((r) => [r.target.name, r.ids])).toEqual([['collaboratore', ['2', '3']]]);
});

it("reads an entry's action and origin by their titles, never as codes", () => {
  expect(titoloVoce('azione', 'creazione')).toBe('Creazione');
  expect(titoloVoce('azione', 'transizione')).toBe('Cambio di stato');
  expect(titoloVoce('origine', 'utente')).toBe('Personale');
  expect(titoloVoce('origine', 'cliente')).toBe('Cliente (link personale)');
  expect(titoloVoce('azione', null)).toBe('');
});
