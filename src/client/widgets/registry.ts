// The one widget registry: form widgets and grid cell renderers by name; definitions refer to these names.
import type { ComponentType } from 'react';
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { BooleanCell, ChipCell, DateCell, DateTimeCell, MoneyCell } from './cells.tsx';
import type { CellProps } from './cells.tsx';
import { CheckboxesWidget, HiddenWidget, RadioWidget, SelectWidget, SwitchWidget } from './choices.tsx';
import { CurrencyWidget, DateWidget, PasswordWidget, PhoneWidget, TextareaWidget, TextWidget, UppercaseWidget } from './inputs.tsx';
import { ComuneWidget, ReferenceWidget } from './lookups.tsx';
import { EndpointLookupWidget } from './endpointLookup.tsx';
import { FixedRowsWidget } from './fixedRows.tsx';
import { ExpandCell } from './ExpandCell.tsx';
import { VeicoliStoriciWidget } from '../pages/quotazione/lazyWidgets.tsx';
import { ProdottoPolizzaWidget } from '../pages/polizza/lazyWidgets.tsx';

export interface RegistryEntry {
  widget?: ComponentType<WidgetProps>;
  cell?: ComponentType<CellProps>;
  /** The widget renders its own label (a switch), so the field template must not add one. */
  ownsLabel?: boolean;
}

const money: RegistryEntry = { widget: CurrencyWidget, cell: MoneyCell };
const flag: RegistryEntry = { widget: SwitchWidget, cell: BooleanCell, ownsLabel: true };

export const registry: Readonly<Record<string, RegistryEntry>> = {
  text: { widget: TextWidget },
  uppercase: { widget: UppercaseWidget },
  currency: money,
  money,
  date: { widget: DateWidget, cell: DateCell },
  datetime: { cell: DateTimeCell },
  phone: { widget: PhoneWidget },
  comune: { widget: ComuneWidget },
  reference: { widget: ReferenceWidget },
  // A combobox on a named look-up endpoint ("ui:options": {"path"}), e.g. the superior sales point.
  lookup: { widget: EndpointLookupWidget },
  // One row per declared key of an array of objects, e.g. the commission of each sector.
  fixedRows: { widget: FixedRowsWidget, ownsLabel: true },
  switch: flag,
  boolean: flag,
  textarea: { widget: TextareaWidget },
  select: { widget: SelectWidget },
  checkboxes: { widget: CheckboxesWidget, ownsLabel: true },
  radio: { widget: RadioWidget, ownsLabel: true },
  hidden: { widget: HiddenWidget, ownsLabel: true },
  password: { widget: PasswordWidget },
  chip: { cell: ChipCell },
  // A row's nested items and detail fields behind a toggle (the policy list's guarantees and product).
  expand: { cell: ExpandCell },
  // Historic vehicles of a quotation: table plus add-vehicle dialog (spec 001 §2).
  veicoli_storici: { widget: VeicoliStoriciWidget, ownsLabel: true },
  // A policy's product, filtered by the chosen branch, contractual company and supplier (spec 002 §2.3).
  prodotto_polizza: { widget: ProdottoPolizzaWidget },
};

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
    PasswordWidget,
    TextareaWidget,
    SelectWidget,
    CheckboxWidget: SwitchWidget,
    CheckboxesWidget,
    RadioWidget,
  });
  return widgets;
}
