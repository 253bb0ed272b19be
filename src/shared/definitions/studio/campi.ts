// The studio's fields as an analyst sees them, and the definition files a field's edit writes: what the Analyst guide
// describes by hand (a property, `required`, `x-renamed-from`, the form's layout, a list column), never anything else.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

export type TipoCampo = 'testo' | 'intero' | 'numero' | 'importo' | 'booleano' | 'data' | 'dataora';

export interface Valore {
  valore: string;
  etichetta: string;
}

export interface Campo {
  nome: string;
  titolo: string;
  tipo: TipoCampo;
  obbligatorio: boolean;
  predefinito?: string;
  lunghezza_massima?: number;
  minimo?: number;
  massimo?: number;
  valori?: Valore[];
  in_lista?: boolean;
  /** Shown (and kept) only when another field has this value: an if/else of the entity schema. */
  visibile_se_campo?: string;
  visibile_se_valore?: string;
  /** An x-computed expression over the record's numeric fields ('premio + competenze'). */
  calcolato?: string;
}

/** The engine's own columns: not an analyst's fields. */
const SYSTEM = new Set(['id', 'version', 'created_at', 'updated_at']);

export const TIPI: Array<{ tipo: TipoCampo; titolo: string }> = [
  { tipo: 'testo', titolo: 'Testo' },
  { tipo: 'intero', titolo: 'Numero intero' },
  { tipo: 'numero', titolo: 'Numero con decimali' },
  { tipo: 'importo', titolo: 'Importo in euro' },
  { tipo: 'booleano', titolo: 'Sì / No' },
  { tipo: 'data', titolo: 'Data' },
  { tipo: 'dataora', titolo: 'Data e ora' },
];

export const paths = (resource: string) => ({
  entity: `schemas/${resource}/entity.schema.json`,
  form: `schemas/${resource}/form.ui.json`,
  list: `schemas/${resource}/list.json`,
});

function tipoOf(property: Json): TipoCampo {
  if (property['x-money']) return 'importo';
  if (property.type === 'integer') return 'intero';
  if (property.type === 'number') return 'numero';
  if (property.type === 'boolean') return 'booleano';
  if (property.format === 'date') return 'data';
  if (property.format === 'date-time') return 'dataora';
  return 'testo';
}

/** The allOf entry that shows `nome` only when one field has one value (as the Analyst guide writes it), if any. */
function condizioneOf(entity: Json, nome: string): { index: number; campo: string; valore: unknown } | undefined {
  const index = (entity.allOf ?? []).findIndex((c: Json) => {
    const hidden = Object.entries<unknown>(c?.else?.properties ?? {});
    const tested = Object.entries<Json>(c?.if?.properties ?? {});
    return hidden.length === 1 && hidden[0]![0] === nome && hidden[0]![1] === false && tested.length === 1 && 'const' in tested[0]![1] && !c.then;
  });
  if (index < 0) return undefined;
  const [campo, test] = Object.entries<Json>(entity.allOf[index].if.properties)[0]!;
  return { index, campo, valore: test.const };
}

/** The fields of a resource's entity schema an analyst may edit (a $ref'd property reads as text unless typed). */
export function campiOf(entity: Json, list?: Json): Campo[] {
  const required = new Set<string>(entity.required ?? []);
  const columns = new Set<string>((list?.columns ?? []).map((c: Json) => c.field));
  return Object.entries<Json>(entity.properties ?? {})
    .filter(([nome, property]) => !SYSTEM.has(nome) && !property['x-removed'] && !property.readOnly)
    .map(([nome, property]) => {
      const options: Json[] | undefined = property.oneOf ?? (property.enum as unknown[] | undefined)?.map((v) => ({ const: v, title: String(v) }));
      const condizione = condizioneOf(entity, nome);
      return {
        nome,
        titolo: property.title ?? nome,
        tipo: tipoOf(property),
        obbligatorio: required.has(nome),
        ...(property.default !== undefined ? { predefinito: String(property.default) } : {}),
        ...(property.maxLength !== undefined ? { lunghezza_massima: property.maxLength } : {}),
        ...(property.minimum !== undefined ? { minimo: property.minimum } : {}),
        ...(property.maximum !== undefined ? { massimo: property.maximum } : {}),
        ...(options ? { valori: options.map((o) => ({ valore: String(o.const), etichetta: String(o.title ?? o.const) })) } : {}),
        in_lista: columns.has(nome),
        ...(condizione ? { visibile_se_campo: condizione.campo, visibile_se_valore: String(condizione.valore) } : {}),
        ...(property['x-computed'] ? { calcolato: property['x-computed'] } : {}),
      };
    });
}

function typed(tipo: TipoCampo, text: string): unknown {
  if (tipo === 'intero') return Number.parseInt(text, 10);
  if (tipo === 'numero' || tipo === 'importo') return Number(text.replace(',', '.'));
  if (tipo === 'booleano') return text === 'true' || text === 'Sì';
  return text;
}

/** The JSON Schema property of a field, keeping what the studio does not edit (formats, messages, widgets...). */
function propertyOf(campo: Campo, before: Json = {}): Json {
  const { type: _t, format: _f, 'x-money': _m, maxLength: _l, minimum: _n, maximum: _x, oneOf: _o, enum: _e, default: _d, $ref: _r, 'x-computed': _c, ...kept } = before;
  const kind: Json = {
    testo: { type: 'string' }, intero: { type: 'integer' }, numero: { type: 'number' }, importo: { type: 'number', 'x-money': true },
    booleano: { type: 'boolean' }, data: { type: 'string', format: 'date' }, dataora: { type: 'string', format: 'date-time' },
  }[campo.tipo];
  // An unchanged $ref'd text field keeps its shared definition.
  const shared = before.$ref && campo.tipo === tipoOf(before) && campo.lunghezza_massima === undefined && !campo.valori?.length ? { $ref: before.$ref } : kind;
  const valori = (campo.valori ?? []).filter((v) => v.valore !== '');
  return {
    ...shared,
    ...kept,
    title: campo.titolo,
    ...(campo.tipo === 'testo' && campo.lunghezza_massima ? { maxLength: campo.lunghezza_massima } : {}),
    ...(campo.minimo !== undefined && campo.tipo !== 'testo' ? { minimum: campo.minimo } : {}),
    ...(campo.massimo !== undefined && campo.tipo !== 'testo' ? { maximum: campo.massimo } : {}),
    ...(valori.length ? { oneOf: valori.map((v) => ({ const: typed(campo.tipo, v.valore), title: v.etichetta || v.valore })) } : {}),
    ...(campo.predefinito !== undefined && campo.predefinito !== '' ? { default: typed(campo.tipo, campo.predefinito) } : {}),
    ...(campo.calcolato ? { 'x-computed': campo.calcolato } : {}),
  };
}

/** The value a condition tests, typed as the tested field is. */
function valoreDi(entity: Json, campo: string, text: string): unknown {
  const tested: Json = entity.properties?.[campo] ?? {};
  return tested.type === 'integer' || tested.type === 'number' ? Number(text) : tested.type === 'boolean' ? text === 'true' : text;
}

/**
 * The files an edited field changes: the entity schema (property, required, rename with x-renamed-from), the form's
 * layout (a new field joins the last section; a renamed one keeps its place) and the list (a column when asked).
 * `originale`: the field's name before the edit (absent for a new field).
 */
export function fileDelCampo(files: Record<string, Json>, resource: string, campo: Campo, originale?: string): Record<string, Json> {
  const p = paths(resource);
  const entity = structuredClone(files[p.entity]!);
  const form = structuredClone(files[p.form]!);
  const list = structuredClone(files[p.list]!);
  const renamed = originale !== undefined && originale !== campo.nome;
  const before: Json = originale !== undefined ? entity.properties[originale] ?? {} : {};
  const properties: Json = {};
  // The property stays where it was (a rename too), a new one goes last.
  for (const [name, value] of Object.entries<Json>(entity.properties)) {
    if (name === originale) properties[campo.nome] = { ...propertyOf(campo, before), ...(renamed ? { 'x-renamed-from': originale } : {}) };
    else properties[name] = value;
  }
  if (originale === undefined) properties[campo.nome] = propertyOf(campo);
  entity.properties = properties;
  const required = (entity.required ?? []).filter((n: string) => n !== originale && n !== campo.nome);
  if (campo.obbligatorio) required.push(campo.nome);
  if (required.length || entity.required) entity.required = required;
  // The condition: one allOf entry per conditional field, replaced in place when it changes.
  const existing = originale !== undefined ? condizioneOf(files[p.entity]!, originale) : undefined;
  const wanted = campo.visibile_se_campo && campo.visibile_se_valore !== undefined && campo.visibile_se_valore !== ''
    ? { if: { properties: { [campo.visibile_se_campo]: { const: valoreDi(entity, campo.visibile_se_campo, campo.visibile_se_valore) } }, required: [campo.visibile_se_campo] }, else: { properties: { [campo.nome]: false } } }
    : undefined;
  const allOf: Json[] = [...(entity.allOf ?? [])];
  if (existing && wanted) allOf[existing.index] = wanted;
  else if (existing) allOf.splice(existing.index, 1);
  else if (wanted) allOf.push(wanted);
  if (allOf.length) entity.allOf = allOf;
  else delete entity.allOf;

  const sections: Json[] = form['ui:layout'] ?? [];
  const placed = sections.some((s) => (s.fields ?? []).includes(originale ?? campo.nome));
  for (const section of sections) section.fields = (section.fields ?? []).map((f: string) => (f === originale ? campo.nome : f));
  if (!placed && sections.length) sections[sections.length - 1]!.fields.push(campo.nome);

  for (const column of list.columns ?? []) if (column.field === originale) column.field = campo.nome;
  const listed = (list.columns ?? []).some((c: Json) => c.field === campo.nome);
  if (campo.in_lista && !listed) list.columns.push({ field: campo.nome, headerName: campo.titolo, sortable: true });
  if (!campo.in_lista && listed) list.columns = list.columns.filter((c: Json) => c.field !== campo.nome);

  const out: Record<string, Json> = {};
  for (const [file, value] of [[p.entity, entity], [p.form, form], [p.list, list]] as const) {
    if (JSON.stringify(value) !== JSON.stringify(files[file])) out[file] = value;
  }
  return out;
}

/** The form the studio edits a field with, on the application's own renderer. */
export const CAMPO_SCHEMA = {
  type: 'object',
  required: ['nome', 'titolo', 'tipo'],
  properties: {
    nome: { type: 'string', title: 'Nome tecnico', maxLength: 60, description: 'Minuscole, cifre e _; cambiarlo rinomina il campo mantenendo i dati.' },
    titolo: { type: 'string', title: 'Etichetta', maxLength: 100 },
    tipo: { type: 'string', title: 'Tipo', oneOf: TIPI.map((t) => ({ const: t.tipo, title: t.titolo })) },
    obbligatorio: { type: 'boolean', title: 'Obbligatorio' },
    predefinito: { type: 'string', title: 'Valore predefinito', maxLength: 200, description: 'Riempie anche i record esistenti senza valore quando il campo diventa obbligatorio.' },
    lunghezza_massima: { type: 'integer', title: 'Lunghezza massima', minimum: 1, maximum: 10000 },
    minimo: { type: 'number', title: 'Minimo' },
    massimo: { type: 'number', title: 'Massimo' },
    valori: {
      type: 'array', title: 'Valori ammessi',
      items: { type: 'object', required: ['valore'], properties: { valore: { type: 'string', title: 'Valore', maxLength: 100 }, etichetta: { type: 'string', title: 'Etichetta', maxLength: 100 } } },
    },
    in_lista: { type: 'boolean', title: 'Colonna nella lista' },
    visibile_se_campo: { type: 'string', title: 'Visibile solo quando il campo', maxLength: 60, description: 'Il nome tecnico di un altro campo; altrimenti il campo è nascosto e vuoto.' },
    visibile_se_valore: { type: 'string', title: 'ha il valore', maxLength: 100 },
    calcolato: { type: 'string', title: 'Calcolato come', maxLength: 200, description: 'Per numeri e importi: un\'espressione con + - * / e i nomi tecnici di altri campi numerici, es. premio + competenze.' },
  },
} as const;

export const NOME_VALIDO = /^[a-z][a-z0-9_]{0,59}$/;
