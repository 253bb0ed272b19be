// The one widget registry: form widgets and grid cell renderers by name; definitions refer to these names.
// The engine's widgets are listed here; a feature module adds its own with registerWidget at start (src/client/features.ts),
// so this file imports no page.
import type { ComponentType } from 'react';
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import type { JsonSchema, ListColumn } from '../types.ts';
import { BooleanCell, ChipCell, DateCell, DateTimeCell, MoneyCell } from './cells.tsx';
import type { CellProps } from './cells.tsx';
import { CheckboxesWidget, HiddenWidget, RadioWidget, SelectWidget, SwitchWidget } from './choices.tsx';
import { CurrencyWidget, DateTimeWidget, DateWidget, PasswordWidget, PhoneWidget, TargaWidget, TextareaWidget, TextWidget, UppercaseWidget } from './inputs.tsx';
import { ComuneWidget, ReferenceWidget } from './lookups.tsx';
import { EndpointLookupWidget } from './endpointLookup.tsx';
import { FixedRowsWidget } from './fixedRows.tsx';
import { ExpandCell } from './ExpandCell.tsx';

/** What the developer catalogue (/test-component) renders the entry with. */
export interface WidgetSample {
  schema: JsonSchema;
  value?: unknown;
  /** "ui:options" of the field. */
  options?: Record<string, unknown>;
  /** The list.json column a cell renderer receives. */
  column?: ListColumn;
}

export interface RegistryEntry {
  widget?: ComponentType<WidgetProps>;
  cell?: ComponentType<CellProps>;
  /** The widget renders its own label (a switch), so the field template must not add one. */
  ownsLabel?: boolean;
  sample?: WidgetSample;
}

const text = (value: string): WidgetSample => ({ schema: { type: 'string' }, value });
const money: RegistryEntry = { widget: CurrencyWidget, cell: MoneyCell, sample: { schema: { type: 'number' }, value: 1234.5 } };
const flag: RegistryEntry = { widget: SwitchWidget, cell: BooleanCell, ownsLabel: true, sample: { schema: { type: 'boolean' }, value: true } };

const entries: Record<string, RegistryEntry> = {
  text: { widget: TextWidget, sample: text('Testo di esempio') },
  uppercase: { widget: UppercaseWidget, sample: text('ROSSI') },
  // Vehicle plate with its formatting control: upper case, letters and digits only.
  targa: { widget: TargaWidget, sample: text('AB123CD') },
  currency: money,
  money,
  date: { widget: DateWidget, cell: DateCell, sample: { schema: { type: 'string', format: 'date' }, value: '2026-11-23' } },
  datetime: { widget: DateTimeWidget, cell: DateTimeCell, sample: { schema: { type: 'string', format: 'date-time' }, value: '2026-11-23T10:30:00Z' } },
  phone: { widget: PhoneWidget, sample: text('+39 333 1234567') },
  comune: { widget: ComuneWidget, sample: text('058091') },
  reference: { widget: ReferenceWidget, sample: { schema: { type: 'integer', 'x-ref': 'compagnia_contrattuale' } } },
  // A combobox on a named look-up endpoint ("ui:options": {"path"}), e.g. the superior sales point.
  lookup: { widget: EndpointLookupWidget, sample: { schema: { type: 'integer' }, value: 1, options: { path: '/api/autocomplete/settore' } } },
  // One row per declared key of an array of objects, e.g. the commission of each sector.
  fixedRows: {
    widget: FixedRowsWidget,
    ownsLabel: true,
    sample: {
      schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, nome: { type: 'string' }, perc: { type: 'number', title: '%', minimum: 0, maximum: 100 } } } },
      value: [{ id: 1, nome: 'DANNI', perc: 12.5 }],
      options: { key: 'id', label: 'nome', rows: [{ id: 1, nome: 'DANNI' }, { id: 2, nome: 'RCA' }] },
    },
  },
  switch: flag,
  boolean: flag,
  textarea: { widget: TextareaWidget, sample: text('Una nota\nsu due righe') },
  select: { widget: SelectWidget, sample: { schema: { type: 'string', oneOf: [{ const: 'A', title: 'Autovettura' }, { const: 'M', title: 'Motocicli' }] }, value: 'A' } },
  checkboxes: { widget: CheckboxesWidget, ownsLabel: true, sample: { schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['email', 'sms'] } }, value: ['email'] } },
  radio: { widget: RadioWidget, ownsLabel: true, sample: { schema: { type: 'string', oneOf: [{ const: 'si', title: 'Sì' }, { const: 'no', title: 'No' }] }, value: 'si' } },
  hidden: { widget: HiddenWidget, ownsLabel: true, sample: text('valore nascosto') },
  password: { widget: PasswordWidget, sample: text('') },
  chip: { cell: ChipCell, sample: { schema: { type: 'string' }, value: 'v', column: { field: 'colore', headerName: 'Colore', chips: { v: 'verde', g: 'giallo', r: 'rosso' } } } },
  // A row's nested items and detail fields behind a toggle (the policy list's guarantees and product).
  expand: { cell: ExpandCell, sample: { schema: { type: 'array' }, value: [{ garanzia: 'RC Auto', importo_lordo: 350 }] } },
};

export const registry: Readonly<Record<string, RegistryEntry>> = entries;

/** A feature's widget or cell renderer under a name definitions can use; a name taken twice stops the start. */
export function registerWidget(name: string, entry: RegistryEntry): void {
  if (Object.prototype.hasOwnProperty.call(entries, name)) throw new Error(`Widget "${name}" registrato due volte.`);
  if (!entry.widget && !entry.cell) throw new Error(`Widget "${name}": manca sia il widget sia la cella.`);
  entries[name] = entry;
}

export class UnknownWidgetError extends Error {
  constructor(name: string, field: string, kind: 'widget' | 'cella') {
    super(`Configurazione non valida: ${kind} sconosciuto "${name}" richiesto dal campo "${field}".`);
    this.name = 'UnknownWidgetError';
  }
}

/** Fails loudly, naming the field, when a definition asks for a widget that does not exist. */
export function widgetEntry(name: string, field: string): RegistryEntry {
  const entry = registry[name];
  if (!entry?.widget) throw new UnknownWidgetError(name, field, 'widget');
  return entry;
}

export function cellRenderer(format: string, field: string): ComponentType<CellProps> {
  const cell = registry[format]?.cell;
  if (!cell) throw new UnknownWidgetError(format, field, 'cella');
  return cell;
}

/**
 * The widgets handed to rjsf: every named entry, plus rjsf's built-in names pointed at the same
 * components, so fields without an explicit widget render through this registry as well.
 */
export function rjsfWidgets(): RegistryWidgetsType {
  const widgets: RegistryWidgetsType = {};
  for (const [name, entry] of Object.entries(registry)) if (entry.widget) widgets[name] = entry.widget;
  Object.assign(widgets, {
    TextWidget,
    EmailWidget: TextWidget,
    URLWidget: TextWidget,
    UpDownWidget: TextWidget,
    DateWidget,
    DateTimeWidget,
    PasswordWidget,
    TextareaWidget,
    SelectWidget,
    CheckboxWidget: SwitchWidget,
    CheckboxesWidget,
    RadioWidget,
  });
  return widgets;
}
