// What the studio writes for a whole new resource and for a workflow transition: the files the Analyst guide describes
// ("A whole resource with its menu entry", "A transition with a permission guard"), nothing more.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

export interface NuovaRisorsa {
  nome: string;
  titolo: string;
  singolare: string;
  /** 'Nuova officina', 'Officina non trovata'. */
  femminile?: boolean;
  menu_ordine: number;
  permesso_lettura: string;
  permesso_scrittura: string;
  campo_nome: string;
  campo_titolo: string;
}

/** The four files of a resource with one required text field, its list, its form and its menu entry. */
export function fileNuovaRisorsa(r: NuovaRisorsa): Record<string, Json> {
  const path = r.nome.replace(/_/g, '-');
  return {
    [`schemas/${r.nome}/resource.json`]: {
      name: r.nome, title: r.titolo, singular: r.singolare, ...(r.femminile ? { feminine: true } : {}), recordTitle: `{${r.campo_nome}}`, icon: 'list-ul',
      api: { path: `/api/${r.nome}` },
      routes: { list: { name: `${r.nome}_index`, path: `/${path}` }, new: { name: `${r.nome}_store`, path: `/new/${path}` }, edit: { name: `${r.nome}_edit`, path: `/modifica/${path}/:id` } },
      permissions: { list: r.permesso_lettura, read: r.permesso_lettura, create: r.permesso_scrittura, update: r.permesso_scrittura, delete: r.permesso_scrittura },
      search: [r.campo_nome],
      menu: { title: r.titolo, order: r.menu_ordine },
    },
    [`schemas/${r.nome}/entity.schema.json`]: {
      type: 'object', additionalProperties: false, required: [r.campo_nome],
      properties: {
        id: { type: 'integer', title: 'Id', readOnly: true },
        [r.campo_nome]: { type: 'string', title: r.campo_titolo, maxLength: 255, minLength: 1 },
        created_at: { type: 'string', format: 'date-time', title: 'Creato il', readOnly: true },
        updated_at: { type: 'string', format: 'date-time', title: 'Aggiornato il', readOnly: true },
      },
    },
    [`schemas/${r.nome}/list.json`]: {
      columns: [{ field: 'id', headerName: 'Id', sortable: true, width: 90 }, { field: r.campo_nome, headerName: r.campo_titolo, sortable: true, filter: 'text', important: true }],
      defaultSort: r.campo_nome, perPage: 15, actions: ['add', 'edit', 'delete'],
    },
    [`schemas/${r.nome}/form.ui.json`]: { 'ui:layout': [{ title: r.singolare, fields: [r.campo_nome] }] },
  };
}

export interface Transizione {
  da: string;
  evento: string;
  etichetta: string;
  a: string;
  permesso: string;
  conferma?: string;
}

/** An event from one state to another, guarded by a permission, labelled and given its route in meta.events. */
export function fileTransizione(machine: Json, t: Transizione): Json {
  const next = structuredClone(machine);
  next.states[t.da].on = { ...(next.states[t.da].on ?? {}), [t.evento]: { guard: { type: 'hasPermission', params: { permission: t.permesso } }, target: t.a } };
  const route = t.evento.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  next.meta.events = { ...next.meta.events, [t.evento]: { label: t.etichetta, route, ...(t.conferma ? { confirm: t.conferma } : {}) } };
  return next;
}

/** The states of a machine with their Italian names and the events leaving each. */
export function statiOf(machine: Json): Array<{ stato: string; nome: string; eventi: string[] }> {
  return Object.entries<Json>(machine.states ?? {}).map(([stato, def]) => ({ stato, nome: def.meta?.nome ?? stato, eventi: Object.keys(def.on ?? {}) }));
}

export const RISORSA_VALIDA = /^[a-z][a-z0-9_]{1,40}$/;
export const EVENTO_VALIDO = /^[A-Z][A-Z0-9_]{1,40}$/;

/** A copy's names; everything else comes from the resource copied. */
export interface CopiaRisorsa {
  nome: string;
  titolo: string;
  singolare: string;
  femminile?: boolean;
  menu_ordine?: number;
}

/**
 * A new resource copying another's entity, list, form and settings under its own name, title, API path, screens and
 * menu entry; no data. Left out, as bound to the original: its workflow, its related tabs, its top-bar search (a route
 * of the original's screens), media and the messages naming it. A read-only view (rows from SQL code) cannot be copied.
 */
export function fileCopiaRisorsa(files: Record<string, Json>, da: string, r: CopiaRisorsa): Record<string, Json> | string {
  const source = files[`schemas/${da}/resource.json`];
  if (!source) return `Risorsa ${da} sconosciuta.`;
  if (source.view) return `${source.title ?? da} è una vista di sola lettura calcolata dal codice: non si copia.`;
  const { workflow: _w, related: _r, cerca: _c, media: _m, messages: _s, newTitle: _n, storico: _h, menu: _u, ...kept } = structuredClone(source);
  const path = r.nome.replace(/_/g, '-');
  const resource: Json = {
    ...kept,
    name: r.nome, title: r.titolo, singular: r.singolare,
    ...(r.femminile ? { feminine: true } : {}),
    api: { path: `/api/${r.nome}`, ...(source.api?.operations ? { operations: source.api.operations } : {}) },
    routes: { list: { name: `${r.nome}_index`, path: `/${path}` }, new: { name: `${r.nome}_store`, path: `/new/${path}` }, edit: { name: `${r.nome}_edit`, path: `/modifica/${path}/:id` } },
    menu: { title: r.titolo, order: r.menu_ordine ?? source.menu?.order ?? 90 },
    ...(source.autocomplete ? { autocomplete: { ...source.autocomplete, path: `/api/autocomplete/${r.nome}` } } : {}),
  };
  if (!r.femminile) delete resource.feminine;
  const out: Record<string, Json> = { [`schemas/${r.nome}/resource.json`]: resource };
  for (const file of ['entity.schema.json', 'list.json', 'form.ui.json']) {
    if (files[`schemas/${da}/${file}`]) out[`schemas/${r.nome}/${file}`] = structuredClone(files[`schemas/${da}/${file}`]!);
  }
  // A new table has no history: no renames to follow, no removed columns to keep.
  const entity = out[`schemas/${r.nome}/entity.schema.json`];
  if (entity?.properties) {
    entity.properties = Object.fromEntries(Object.entries<Json>(entity.properties).filter(([, p]) => !p['x-removed']).map(([n, p]) => {
      const { 'x-renamed-from': _f, ...rest } = p;
      return [n, rest];
    }));
  }
  return out;
}
