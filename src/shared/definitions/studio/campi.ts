// The studio's fields as an analyst sees them, and the definition files a field's edit writes: what the Analyst guide
// describes by hand (a property, `required`, `x-renamed-from`, the form's layout, a list column), never anything else.
import { italianFormats } from '../../validators/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

export type TipoCampo = 'testo' | 'intero' | 'numero' | 'importo' | 'booleano' | 'data' | 'dataora' | 'riferimento';

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
  /** A text's format (email, codice-fiscale, iban...), checked with its Italian message. */
  formato?: string;
  /** A text's pattern, and the Italian message shown when a value does not match it (x-messages.pattern). */
  modello?: string;
  messaggio_modello?: string;
  /** The resource a 'riferimento' field points at (x-ref). */
  riferimento?: string;
  /** A text kept in capitals (x-uppercase). */
  maiuscolo?: boolean;
  /** Only holders of this permission read the field (x-read-permission). */
  permesso_lettura?: string;
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
  { tipo: 'riferimento', titolo: 'Riferimento a un\'altra risorsa' },
];

/** The formats a text field may have: the standard e-mail and the Italian ones the validator implements. */
export const FORMATI = ['email', ...Object.keys(italianFormats)];
const formatoTitolo = (f: string) => (f === 'email' ? 'E-mail' : f === 'iban' ? 'IBAN' : f === 'cap' ? 'CAP' : `${f[0]!.toUpperCase()}${f.slice(1).replace(/-/g, ' ')}`);

export const paths = (resource: string) => ({
  entity: `schemas/${resource}/entity.schema.json`,
  form: `schemas/${resource}/form.ui.json`,
  list: `schemas/${resource}/list.json`,
});

function tipoOf(property: Json): TipoCampo {
  if (property['x-ref']) return 'riferimento';
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
        ...(typeof property.format === 'string' && FORMATI.includes(property.format) ? { formato: property.format } : {}),
        ...(property.pattern ? { modello: property.pattern } : {}),
        ...(property['x-messages']?.pattern ? { messaggio_modello: property['x-messages'].pattern } : {}),
        ...(property['x-ref'] ? { riferimento: property['x-ref'] } : {}),
        ...(property['x-uppercase'] ? { maiuscolo: true } : {}),
        ...(property['x-read-permission'] ? { permesso_lettura: property['x-read-permission'] } : {}),
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
  const {
    type: _t, format: _f, 'x-money': _m, maxLength: _l, minimum: _n, maximum: _x, oneOf: _o, enum: _e, default: _d, $ref: _r, 'x-computed': _c,
    pattern: _p, 'x-messages': messages, 'x-ref': _rf, 'x-uppercase': _u, 'x-read-permission': _rp, ...kept
  } = before;
  const kind: Json = {
    testo: { type: 'string' }, intero: { type: 'integer' }, numero: { type: 'number' }, importo: { type: 'number', 'x-money': true },
    booleano: { type: 'boolean' }, data: { type: 'string', format: 'date' }, dataora: { type: 'string', format: 'date-time' },
    // A reference is picked by its label (the look-up widget), as the Analyst guide writes it.
    riferimento: { type: 'integer', 'x-ref': campo.riferimento, 'x-widget': 'reference' },
  }[campo.tipo];
  if (kept['x-widget'] === 'reference') delete kept['x-widget'];
  const testo = campo.tipo === 'testo';
  // The pattern's message is the studio's; the other keywords' messages stay as written.
  const { pattern: _pm, ...otherMessages } = (messages ?? {}) as Json;
  const allMessages = { ...otherMessages, ...(testo && campo.modello && campo.messaggio_modello ? { pattern: campo.messaggio_modello } : {}) };
  // An unchanged $ref'd text field keeps its shared definition.
  const shared = before.$ref && campo.tipo === tipoOf(before) && campo.lunghezza_massima === undefined && !campo.valori?.length && !campo.formato && !campo.modello
    ? { $ref: before.$ref } : kind;
  // A row just added and not yet filled is no value.
  const valori = (campo.valori ?? []).filter((v) => v?.valore !== undefined && v.valore !== '');
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
    ...(testo && campo.formato ? { format: campo.formato } : {}),
    ...(testo && campo.modello ? { pattern: campo.modello } : {}),
    ...(Object.keys(allMessages).length ? { 'x-messages': allMessages } : {}),
    ...(testo && campo.maiuscolo ? { 'x-uppercase': true } : {}),
    ...(campo.permesso_lettura ? { 'x-read-permission': campo.permesso_lettura } : {}),
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

/** The field form with its choices: the formats, the resources a reference may point at, the permissions. */
export function campoSchema(risorse: Array<{ const: string; title: string }>, permessi: Array<{ const: string; title: string }>): Json {
  return {
    ...CAMPO_SCHEMA,
    properties: {
      ...CAMPO_SCHEMA.properties,
      formato: { type: 'string', title: 'Formato (testo)', oneOf: FORMATI.map((f) => ({ const: f, title: formatoTitolo(f) })) },
      modello: { type: 'string', title: 'Modello (espressione regolare, testo)', maxLength: 200, description: 'Es. ^[A-Z]{2}[0-9]{3}$: il valore deve corrispondere.' },
      messaggio_modello: { type: 'string', title: 'Messaggio se il valore non corrisponde al modello', maxLength: 200 },
      ...(risorse.length ? { riferimento: { type: 'string', title: 'Risorsa collegata (per un riferimento)', oneOf: risorse } } : {}),
      maiuscolo: { type: 'boolean', title: 'Sempre in maiuscolo (testo)' },
      ...(permessi.length ? { permesso_lettura: { type: 'string', title: 'Solo chi ha il permesso lo legge', oneOf: permessi } } : {}),
    },
  };
}

export const NOME_VALIDO = /^[a-z][a-z0-9_]{0,59}$/;

/**
 * What in a field's form cannot be written for its type, in Italian (a value or default that is no number for a
 * numeric field): else the draft would carry NaN, which JSON turns into null.
 */
export function problemaDelCampo(campo: Campo): string | undefined {
  if (!['intero', 'numero', 'importo'].includes(campo.tipo)) return undefined;
  const numero = campo.tipo === 'intero' ? /^-?\d+$/ : /^-?\d+([.,]\d+)?$/;
  const nome = TIPI.find((t) => t.tipo === campo.tipo)!.titolo.toLowerCase();
  const cattivi = (campo.valori ?? []).map((v) => v?.valore).filter((v) => v !== undefined && v !== '' && !numero.test(v.trim()));
  if (cattivi.length) return `Valori ammessi non validi per un campo ${nome}: ${cattivi.join(', ')}.`;
  if (campo.predefinito !== undefined && campo.predefinito !== '' && !numero.test(campo.predefinito.trim())) return `Valore predefinito non valido per un campo ${nome}: ${campo.predefinito}.`;
  return undefined;
}
