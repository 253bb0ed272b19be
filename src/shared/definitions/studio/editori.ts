// The studio's editors of a resource's list, form and settings: each a form (on the application's renderer) over the
// keys of list.json, form.ui.json and resource.json the Analyst guide documents; every other key is kept as it was.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

export interface Scelta {
  const: string;
  title: string;
}

const FORMATI = ['date', 'datetime', 'money', 'boolean', 'chip'];
const FILTRI = ['text', 'number', 'set', 'boolean', 'date'];

/** The list's form: columns in order (rjsf's arrows move them), then sort and page size. */
export function listaSchema(campi: Scelta[]): Json {
  const campo = { type: 'string', title: 'Campo', oneOf: campi };
  return {
    type: 'object',
    properties: {
      colonne: {
        type: 'array', title: 'Colonne (nell\'ordine della lista)',
        items: {
          type: 'object', required: ['field'],
          properties: {
            field: campo, headerName: { type: 'string', title: 'Intestazione', maxLength: 100 },
            width: { type: 'integer', title: 'Larghezza (px)', minimum: 40, maximum: 800 },
            pinned: { type: 'string', title: 'Fissata', oneOf: [{ const: 'left', title: 'A sinistra' }, { const: 'right', title: 'A destra' }] },
            important: { type: 'boolean', title: 'Sempre in vista' }, sortable: { type: 'boolean', title: 'Ordinabile' },
            format: { type: 'string', title: 'Formato', oneOf: FORMATI.map((f) => ({ const: f, title: f })) },
            filter: { type: 'string', title: 'Filtro', oneOf: FILTRI.map((f) => ({ const: f, title: f })) },
          },
        },
      },
      ordinamento: { type: 'string', title: 'Ordinamento predefinito', oneOf: campi.flatMap((c) => [{ const: c.const, title: `${c.title} (crescente)` }, { const: `-${c.const}`, title: `${c.title} (decrescente)` }]) },
      righe_per_pagina: { type: 'integer', title: 'Righe per pagina', minimum: 5, maximum: 200 },
    },
  };
}

export function listaDati(list: Json): Json {
  return { colonne: list.columns ?? [], ordinamento: list.defaultSort, righe_per_pagina: list.perPage };
}

export function listaFile(list: Json, dati: Json): Json {
  const next = structuredClone(list);
  const before = new Map<string, Json>((list.columns ?? []).map((c: Json) => [c.field, c]));
  // A column keeps the keys the studio does not show (chips, hide, details...); an emptied option is removed.
  next.columns = (dati.colonne ?? []).map((c: Json) => {
    const merged: Json = { ...(before.get(c.field) ?? {}), ...c };
    for (const key of ['width', 'pinned', 'format', 'filter', 'headerName']) if (merged[key] === undefined || merged[key] === '') delete merged[key];
    for (const key of ['important', 'sortable']) if (!merged[key]) delete merged[key];
    return merged;
  });
  if (dati.ordinamento) next.defaultSort = dati.ordinamento;
  if (dati.righe_per_pagina) next.perPage = dati.righe_per_pagina;
  return next;
}

/** The form's layout: sections with a title and their fields in order. */
export function moduloSchema(campi: Scelta[]): Json {
  return {
    type: 'object',
    properties: {
      sezioni: {
        type: 'array', title: 'Sezioni del modulo',
        items: { type: 'object', required: ['title'], properties: { title: { type: 'string', title: 'Titolo della sezione', maxLength: 100 }, fields: { type: 'array', title: 'Campi', items: { type: 'string', oneOf: campi } } } },
      },
    },
  };
}

export const moduloDati = (form: Json): Json => ({ sezioni: form['ui:layout'] ?? [] });

export function moduloFile(form: Json, dati: Json): Json {
  return { ...structuredClone(form), 'ui:layout': (dati.sezioni ?? []).map((s: Json) => ({ ...s, fields: (s.fields ?? []).filter(Boolean) })) };
}

/** The resource's settings: names, menu entry, permissions per action, search fields. */
export function risorsaSchema(campi: Scelta[], permessi: Scelta[]): Json {
  const permesso = (title: string) => ({ type: 'string', title, oneOf: permessi });
  return {
    type: 'object', required: ['title'],
    properties: {
      title: { type: 'string', title: 'Titolo', maxLength: 100 }, singular: { type: 'string', title: 'Singolare', maxLength: 100 },
      menu_titolo: { type: 'string', title: 'Voce di menu (vuota: nessuna)', maxLength: 100 }, menu_ordine: { type: 'integer', title: 'Posizione nel menu', minimum: 0, maximum: 1000 },
      list: permesso('Chi vede la lista'), read: permesso('Chi apre un record'), create: permesso('Chi crea'), update: permesso('Chi modifica'), delete: permesso('Chi elimina'),
      search: { type: 'array', title: 'Campi cercati dalla casella di ricerca', items: { type: 'string', oneOf: campi } },
    },
  };
}

export function risorsaDati(resource: Json): Json {
  return {
    title: resource.title, singular: resource.singular, menu_titolo: resource.menu?.title, menu_ordine: resource.menu?.order,
    ...resource.permissions, search: resource.search ?? [],
  };
}

export function risorsaFile(resource: Json, dati: Json): Json {
  const next = structuredClone(resource);
  next.title = dati.title;
  if (dati.singular) next.singular = dati.singular;
  if (dati.menu_titolo) next.menu = { ...(resource.menu ?? {}), title: dati.menu_titolo, order: dati.menu_ordine ?? resource.menu?.order ?? 90 };
  else delete next.menu;
  // A permission expression the studio cannot show as one choice (a|b) stays as written unless changed.
  for (const action of ['list', 'read', 'create', 'update', 'delete']) if (dati[action]) next.permissions = { ...next.permissions, [action]: dati[action] };
  if ((dati.search ?? []).length) next.search = dati.search.filter(Boolean);
  return next;
}
