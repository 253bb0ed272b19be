// Meta-schemas that resource.json and list.json must satisfy; checked at start-up.
import { SCOPE_USER_ATTRIBUTES } from './types.ts';

const permissionExpr = { type: 'string', minLength: 1 };
// A cerca entry: a property, or an array's text property as `array[].key`.
const CERCA_ENTRY = '^[A-Za-z_][A-Za-z0-9_]*(\\[\\]\\.[A-Za-z_][A-Za-z0-9_]*)?$';
const route = {
  type: 'object',
  required: ['name', 'path'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, path: { type: 'string', pattern: '^/' }, aliases: { type: 'array', items: { type: 'string', pattern: '^/' } } },
};

export const resourceMetaSchema = {
  type: 'object',
  required: ['name', 'title', 'api', 'permissions'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    title: { type: 'string' },
    singular: { type: 'string' },
    // Italian agreement of the success messages: "Quotazione creata", "Cliente creato".
    feminine: { type: 'boolean' },
    newTitle: { type: 'string' },
    recordTitle: { type: 'string' },
    icon: { type: 'string' },
    api: {
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', pattern: '^/api/[a-zA-Z0-9_/]+$' },
        aliases: { type: 'array', items: { type: 'string', pattern: '^/api/' } },
        // The generic routes served (default all): a resource written only by its domain's routes lists, reads and deletes.
        operations: { type: 'array', uniqueItems: true, items: { enum: ['list', 'read', 'create', 'update', 'delete'] } },
      },
    },
    // Success messages replacing the generic 'Quotazione eliminata con successo.' ones, when the spec words them otherwise.
    messages: {
      type: 'object',
      additionalProperties: false,
      properties: { created: { type: 'string' }, updated: { type: 'string' }, deleted: { type: 'string' } },
    },
    routes: { type: 'object', additionalProperties: false, properties: { list: route, new: route, edit: route } },
    menu: {
      type: 'object',
      required: ['title'],
      additionalProperties: false,
      properties: { title: { type: 'string' }, order: { type: 'number' }, icon: { type: 'string' } },
    },
    permissions: {
      type: 'object',
      required: ['list', 'read', 'create', 'update', 'delete'],
      additionalProperties: false,
      properties: { list: permissionExpr, read: permissionExpr, create: permissionExpr, update: permissionExpr, delete: permissionExpr },
    },
    rowScope: {
      type: 'object',
      required: ['field', 'user'],
      additionalProperties: false,
      properties: {
        field: { type: 'string' },
        // The signed-in user's attribute the field must equal.
        user: { enum: [...SCOPE_USER_ATTRIBUTES] },
        unless: permissionExpr,
        // Holders of `permission` also see the rows of the collaborators below them (through parentField).
        network: {
          type: 'object',
          required: ['permission', 'parentField'],
          additionalProperties: false,
          properties: { permission: permissionExpr, parentField: { type: 'string' } },
        },
      },
    },
    workflow: {
      type: 'object',
      required: ['machine'],
      additionalProperties: false,
      properties: { machine: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' }, countsPath: { type: 'string', pattern: '^/api/' } },
    },
    search: { type: 'array', items: { type: 'string' } },
    // GET /api/cerca: the top bar's search over every resource declaring it.
    cerca: {
      type: 'object',
      required: ['fields', 'label', 'route'],
      additionalProperties: false,
      properties: {
        fields: {
          type: 'array',
          minItems: 1,
          items: {
            anyOf: [
              { type: 'string', pattern: CERCA_ENTRY },
              {
                type: 'object',
                required: ['field'],
                additionalProperties: false,
                properties: { field: { type: 'string', pattern: CERCA_ENTRY }, match: { enum: ['contains', 'prefix'] }, shape: { type: 'string', minLength: 1 } },
              },
            ],
          },
        },
        label: { type: 'string', minLength: 1 },
        route: { type: 'string', pattern: '^/' },
      },
    },
    // GET {path}?search= answers {data: [{id, label}]} with the resource's permission and row scope.
    autocomplete: {
      type: 'object',
      required: ['path', 'label'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', pattern: '^/api/autocomplete/[a-z_]+$' },
        label: { type: 'array', minItems: 1, items: { type: 'string' } },
      },
    },
    activeField: { type: 'string' },
    // Rows are a read-only SQL view its domain registers (app.extensions.view): no table, only the list and read routes.
    view: { type: 'boolean' },
    headers: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$' },
    storico: { type: 'boolean', description: 'lo storico delle modifiche dei record (predefinito: sì)' },
    // Files the records own: collections with their limits, the API paths, the workflow events that allow changes.
    media: mediaMetaSchema(),
    // The record screen's tabs of related rows (the customer card): other resources' lists, the change history, a route's rows.
    related: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1 },
          kind: { enum: ['list', 'storico', 'tabella'] },
          resource: { type: 'string' },
          // The related resource's property pointing at this record (x-ref).
          field: { type: 'string' },
          // Or: the related resource's property -> this record's property whose value it must equal (an e-mail's recipient).
          match: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
          sort: { type: 'string' },
          // kind "tabella": a GET route under the resource's path ({id} is the record's) answering {data: [...]}, and its columns.
          path: { type: 'string', pattern: '^/api/' },
          columns: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['field', 'headerName'],
              additionalProperties: false,
              properties: { field: { type: 'string' }, headerName: { type: 'string' }, format: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } },
            },
          },
        },
      },
    },
  },
} as const;

function mediaMetaSchema() {
  const collection = {
    type: 'object',
    required: ['title', 'types', 'maxSizeMb'],
    additionalProperties: false,
    properties: {
      title: { type: 'string' },
      types: { type: 'array', minItems: 1, items: { enum: ['pdf', 'jpeg', 'png'] } },
      maxSizeMb: { type: 'number', exclusiveMinimum: 0, maximum: 1024 },
      maxCount: { type: 'integer', minimum: 1 },
      publicMaxCount: { type: 'integer', minimum: 1 },
      // Written by the system (generated contract, signed PDF): not offered in the upload dialog.
      generated: { type: 'boolean' },
      // Extra descriptive fields asked at upload (version, validity date of a pre-contract notice).
      fields: { type: 'array', items: { enum: ['versione', 'valido_dal'] } },
      // One file per record: an accepted upload replaces the one there (in the same transaction), a refused one leaves it.
      single: { type: 'boolean' },
      // Asked of every record the documents desk tracks; 'signature' marks the collection holding signed copies.
      required: { type: 'boolean' },
      signature: { type: 'boolean' },
    },
  };
  const collections = { type: 'object', minProperties: 1, additionalProperties: collection };
  const paths = { type: 'array', items: { type: 'string', pattern: '^/api/' } };
  return {
    type: 'object',
    required: ['model', 'collections'],
    additionalProperties: false,
    properties: {
      model: { type: 'string' },
      collections,
      // The multipart field of the file in the declared upload paths (spec 002: file_name), "file" by default.
      fileField: { type: 'string', pattern: '^[a-z_]{1,40}$' },
      // Rows of an array field that own files too (a vehicle's libretto), reached through the record.
      items: {
        type: 'array',
        items: {
          type: 'object', required: ['model', 'field', 'collections'], additionalProperties: false,
          properties: { model: { type: 'string' }, field: { type: 'string' }, collections },
        },
      },
      paths: {
        type: 'object', additionalProperties: false,
        properties: { upload: paths, download: paths, list: paths, delete: paths },
      },
      events: {
        type: 'object', additionalProperties: false,
        // confirm/revise: the workflow events that judge the uploaded documents (offered by the documents desk).
        properties: { upload: { type: 'string' }, delete: { type: 'string' }, confirm: { type: 'string' }, revise: { type: 'string' } },
      },
      // The statuses (ids) in which the documents desk follows a record's required documents; none = every status.
      trackStatuses: { type: 'array', items: { type: 'integer' } },
      // Only records whose every listed field holds one of its values (null: empty) are followed, e.g. a policy that is
      // not reversed and not a copy whose documents its quotation already holds.
      trackWhere: {
        type: 'object', minProperties: 1,
        additionalProperties: { type: 'array', minItems: 1, items: { type: ['string', 'integer', 'boolean', 'null'] } },
      },
      // Who may read the files: by default whoever may read the record.
      readPermission: permissionExpr,
    },
  } as const;
}

// The input a list offers to filter by a column or a declared filter.
const filterInput = { enum: ['text', 'number', 'set', 'boolean', 'date'] } as const;

export const listMetaSchema = {
  type: 'object',
  required: ['columns'],
  additionalProperties: false,
  properties: {
    columns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['field', 'headerName'],
        additionalProperties: false,
        properties: {
          field: { type: 'string' },
          headerName: { type: 'string' },
          sortable: { type: 'boolean' },
          filter: filterInput,
          // The engine's cells (date, money, boolean, chip, datetime, expand, ref: an x-ref column shown by the referenced
          // record's title) or one a feature registers (registerWidget with a cell, e.g. quietanza_pdf).
          format: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
          width: { type: 'number', minimum: 30, maximum: 2000 },
          // Kept in view at the left (or right) while the grid scrolls sideways.
          pinned: { enum: ['left', 'right'] },
          // Must be visible without scrolling sideways: pinned at the left when the columns overflow the screen.
          important: { type: 'boolean' },
          hide: { type: 'boolean' },
          chips: { type: 'object', additionalProperties: { type: 'string' } },
          // Traffic-light chips: value >= first threshold green, >= second orange, else red. For an array
          // column (e.g. provvigioni_settori) one chip per item: itemKey names it, itemValue is compared.
          thresholds: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } },
          itemKey: { type: 'string' },
          itemValue: { type: 'string' },
          // format 'expand': other fields of the row shown with the nested items.
          details: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    defaultSort: { type: 'string', pattern: '^-?[A-Za-z_][A-Za-z0-9_]*$' },
    perPage: { type: 'integer', minimum: -1, maximum: 500, not: { const: 0 } },
    actions: { type: 'array', items: { enum: ['add', 'edit', 'delete'] } },
    emptyText: { type: 'string' },
    // Where a row opens instead of the record's own form: a path with {field} placeholders of the row.
    rowLink: { type: 'string', pattern: '^/' },
    // false: an API without free-text search (a desk over a custom route); a resource's own list always searches.
    search: { type: 'boolean' },
    // Filters that are not columns: fields of the entity, server-side list filters of the domain (filter[targa]), or
    // declared bounds of a property (property + bound).
    filters: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'headerName', 'filter'],
        additionalProperties: false,
        properties: {
          field: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          headerName: { type: 'string' },
          filter: filterInput,
          // One end of a range on a property, applied by the engine: filter[pagato_dal] is data_pagamento >= the day.
          property: { type: 'string' },
          bound: { enum: ['from', 'to'] },
        },
        dependencies: { property: ['bound'], bound: ['property'] },
      },
    },
    // The list's own saved filters, offered to every user under 'Filtri salvati' before their own: a name, and the
    // search, filters (filter name → value, as the list's query sends it) and sort it applies.
    savedFilters: {
      type: 'array',
      items: {
        type: 'object',
        required: ['nome'],
        additionalProperties: false,
        properties: {
          nome: { type: 'string', minLength: 1, maxLength: 100 },
          search: { type: 'string', maxLength: 200 },
          sort: { type: 'string', pattern: '^-?[A-Za-z_][A-Za-z0-9_]*$' },
          filters: { type: 'object', additionalProperties: { type: 'string', maxLength: 200 } },
        },
      },
    },
    // The question asked before deleting a row ('Sicuro di voler cancellare il veicolo?'); default 'Conferma l'eliminazione'.
    deleteConfirm: { type: 'string' },
  },
} as const;

/** What a menu entry and a dashboard card both say: a title that opens a route for holders of a permission. */
const entryProperties = {
  title: { type: 'string' },
  route: { type: 'string', pattern: '^/' },
  icon: { type: 'string' },
  permission: permissionExpr,
  order: { type: 'number' },
} as const;

function entriesOf<P extends Record<string, unknown>>(properties: P) {
  return {
    type: 'array',
    items: { type: 'object', required: ['title', 'route', 'permission'], additionalProperties: false, properties: { ...entryProperties, ...properties } },
  } as const;
}

export const menuMetaSchema = entriesOf({});

/** _shared/dashboard.json: the dashboard's cards, each shown to holders of its permission. */
export const dashboardMetaSchema = entriesOf({
  route: { type: 'string', pattern: '^/[a-z0-9_/-]*$' },
  // A named page of the client's registry when no resource lists at this route.
  page: { type: 'string' },
  // A live figure of GET /api/dashboard (conteggi.<count>) shown on the card, with its caption.
  count: { enum: ['titoli_scaduti', 'documenti_mancanti'] },
  countLabel: { type: 'string' },
});
