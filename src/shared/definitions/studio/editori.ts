// The studio's editors of a resource's list, form and settings: each a form (on the application's renderer) over the
// keys of list.json, form.ui.json and resource.json the Analyst guide documents; every other key is kept as it was.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

export interface Scelta {
  const: string;
  title: string;
}

const FORMATI = ['date', 'datetime', 'money', 'boolean', 'chip'];
const FILTRI = ['text', 'number', 'set', 'boolean', 'date'];

/** The filters a list offers (its columns with a filter, then its other filters): what a saved filter may set. */
export function filtriDellaLista(list: Json): Scelta[] {
  return [
    ...(list.columns ?? []).filter((c: Json) => c.filter).map((c: Json) => ({ const: c.field, title: c.headerName ?? c.field })),
    ...(list.filters ?? []).map((f: Json) => ({ const: f.field, title: f.headerName ?? f.field })),
  ];
}

/** The list's form: columns in order (dragged, or moved with the arrows), sort, page size and its saved filters. */
export function listaSchema(campi: Scelta[], filtri: Scelta[] = []): Json {
  const campo = { type: 'string', title: 'Campo', oneOf: campi };
  const ordinamenti = campi.flatMap((c) => [{ const: c.const, title: `${c.title} (crescente)` }, { const: `-${c.const}`, title: `${c.title} (decrescente)` }]);
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
      ordinamento: { type: 'string', title: 'Ordinamento predefinito', oneOf: ordinamenti },
      righe_per_pagina: { type: 'integer', title: 'Righe per pagina', minimum: 5, maximum: 200 },
      filtri_salvati: {
        type: 'array', title: 'Filtri salvati per tutti (in «Filtri salvati», prima di quelli di ciascuno)',
        items: {
          type: 'object', required: ['nome'],
          properties: {
            nome: { type: 'string', title: 'Nome del filtro', minLength: 1, maxLength: 100 },
            ricerca: { type: 'string', title: 'Testo cercato', maxLength: 200 },
            ordinamento: { type: 'string', title: 'Ordinamento', oneOf: ordinamenti },
            filtri: {
              type: 'array', title: 'Filtri',
              items: { type: 'object', required: ['filtro', 'valore'], properties: { filtro: { type: 'string', title: 'Filtro', oneOf: filtri }, valore: { type: 'string', title: 'Valore', maxLength: 200 } } },
            },
          },
        },
      },
    },
  };
}

export function listaDati(list: Json): Json {
  const filtri_salvati = (list.savedFilters ?? []).map((f: Json) => ({
    nome: f.nome, ricerca: f.search, ordinamento: f.sort, filtri: Object.entries(f.filters ?? {}).map(([filtro, valore]) => ({ filtro, valore })),
  }));
  return { colonne: list.columns ?? [], ordinamento: list.defaultSort, righe_per_pagina: list.perPage, filtri_salvati };
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
  const salvati = (dati.filtri_salvati ?? []).filter((f: Json) => f?.nome).map((f: Json) => {
    const filters = Object.fromEntries((f.filtri ?? []).filter((x: Json) => x?.filtro && x.valore !== undefined).map((x: Json) => [x.filtro, String(x.valore)]));
    return { nome: f.nome, ...(f.ricerca ? { search: f.ricerca } : {}), ...(f.ordinamento ? { sort: f.ordinamento } : {}), ...(Object.keys(filters).length ? { filters } : {}) };
  });
  if (salvati.length) next.savedFilters = salvati;
  else delete next.savedFilters;
  return next;
}

const LARGHEZZE: Scelta[] = [
  { const: 'full', title: 'Tutta la riga' }, { const: 'half', title: 'Metà riga' }, { const: 'third', title: 'Un terzo di riga' }, { const: 'quarter', title: 'Un quarto di riga' },
];

/**
 * The form's layout: sections with a title and their fields in order; then per field its width ("ui:width") and its
 * widget ("ui:widget"), chosen among `widgets`: the names of the client's widget registry, passed in by the studio.
 */
export function moduloSchema(campi: Scelta[], widgets: string[] = []): Json {
  return {
    type: 'object',
    properties: {
      sezioni: {
        type: 'array', title: 'Sezioni del modulo',
        items: { type: 'object', required: ['title'], properties: { title: { type: 'string', title: 'Titolo della sezione', maxLength: 100 }, fields: { type: 'array', title: 'Campi', items: { type: 'string', oneOf: campi } } } },
      },
      aspetto: {
        type: 'array', title: 'Larghezza e widget dei campi (gli altri come il loro tipo)',
        items: {
          type: 'object', required: ['campo'],
          properties: {
            campo: { type: 'string', title: 'Campo', oneOf: campi },
            larghezza: { type: 'string', title: 'Larghezza', oneOf: LARGHEZZE },
            ...(widgets.length ? { widget: { type: 'string', title: 'Widget', oneOf: widgets.map((w) => ({ const: w, title: w })) } } : {}),
          },
        },
      },
    },
  };
}

export function moduloDati(form: Json): Json {
  const aspetto = Object.entries<Json>(form).filter(([key, ui]) => !key.startsWith('ui:') && key !== '$comment' && (ui['ui:width'] || ui['ui:widget']))
    .map(([campo, ui]) => ({ campo, larghezza: ui['ui:width'], widget: ui['ui:widget'] }));
  return { sezioni: form['ui:layout'] ?? [], aspetto };
}

export function moduloFile(form: Json, dati: Json): Json {
  const next: Json = { ...structuredClone(form), 'ui:layout': (dati.sezioni ?? []).map((s: Json) => ({ ...s, fields: (s.fields ?? []).filter(Boolean) })) };
  // A field's other options (a lookup's path, a textarea's rows) stay; a field no longer listed loses width and widget.
  const wanted = new Map<string, Json>((dati.aspetto ?? []).filter((a: Json) => a?.campo).map((a: Json) => [a.campo, a]));
  for (const name of new Set([...Object.keys(next).filter((k) => !k.startsWith('ui:') && k !== '$comment'), ...wanted.keys()])) {
    const ui: Json = { ...(next[name] ?? {}) };
    const a = wanted.get(name);
    for (const [key, value] of [['ui:width', a?.larghezza], ['ui:widget', a?.widget]] as const) {
      if (value) ui[key] = value;
      else delete ui[key];
    }
    if (Object.keys(ui).length) next[name] = ui;
    else delete next[name];
  }
  return next;
}

/**
 * The resource's settings: names, menu entry, permissions per action, search fields, the row scope (the records of the
 * signed-in collaborator only, unless a permission; the only user attribute the engine scopes by is collaboratore_id)
 * and the autocomplete label (the fields naming a record in look-ups and reference columns).
 * `interi`: the integer fields, the only ones a row scope may test.
 */
export function risorsaSchema(campi: Scelta[], permessi: Scelta[], interi: Scelta[] = []): Json {
  const permesso = (title: string) => ({ type: 'string', title, oneOf: permessi });
  return {
    type: 'object', required: ['title'],
    properties: {
      title: { type: 'string', title: 'Titolo', maxLength: 100 }, singular: { type: 'string', title: 'Singolare', maxLength: 100 },
      menu_titolo: { type: 'string', title: 'Voce di menu (vuota: nessuna)', maxLength: 100 }, menu_ordine: { type: 'integer', title: 'Posizione nel menu', minimum: 0, maximum: 1000 },
      list: permesso('Chi vede la lista'), read: permesso('Chi apre un record'), create: permesso('Chi crea'), update: permesso('Chi modifica'), delete: permesso('Chi elimina'),
      search: { type: 'array', title: 'Campi cercati dalla casella di ricerca', items: { type: 'string', oneOf: campi } },
      ...(interi.length ? { ambito_campo: { type: 'string', title: 'Righe visibili solo al collaboratore indicato nel campo (vuoto: tutte)', oneOf: interi } } : {}),
      ambito_tranne: permesso('Chi vede comunque tutte le righe'),
      etichetta: { type: 'array', title: 'Campi che nominano un record nelle ricerche e nei riferimenti', items: { type: 'string', oneOf: campi } },
    },
  };
}

export function risorsaDati(resource: Json): Json {
  return {
    title: resource.title, singular: resource.singular, menu_titolo: resource.menu?.title, menu_ordine: resource.menu?.order,
    ...resource.permissions, search: resource.search ?? [],
    ambito_campo: resource.rowScope?.field, ambito_tranne: resource.rowScope?.unless, etichetta: resource.autocomplete?.label ?? [],
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
  if (dati.ambito_campo) {
    // The network (the rows of the collaborators below) is kept as written while the field stays the same.
    const network = resource.rowScope?.field === dati.ambito_campo ? resource.rowScope?.network : undefined;
    next.rowScope = { field: dati.ambito_campo, user: 'collaboratore_id', ...(dati.ambito_tranne ? { unless: dati.ambito_tranne } : {}), ...(network ? { network } : {}) };
  } else delete next.rowScope;
  const etichetta = (dati.etichetta ?? []).filter(Boolean);
  if (etichetta.length) next.autocomplete = { path: resource.autocomplete?.path ?? `/api/autocomplete/${resource.name}`, label: etichetta };
  else delete next.autocomplete;
  return next;
}
