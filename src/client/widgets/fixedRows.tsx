// 'fixedRows' widget: an array of objects with one row per declared key (e.g. one commission per sector), the other item fields editable in columns.
import { RequiredMark } from '../lib/RequiredMark.tsx';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { WidgetProps } from '@rjsf/utils';
import { parseDecimal } from '../lib/format.ts';
import { ajvMessages } from '../messages.ts';
import type { JsonSchema } from '../types.ts';
import { hiddenProperties } from '../../shared/rules.ts';
import { DecimalCell } from './CellControl.tsx';
import { describedBy } from './aria.ts';

type Item = Record<string, unknown>;

export interface FixedRowsOptions {
  /** The rows, each with its fixed fields (e.g. {id: 2, nome: 'RCA'}). */
  rows: Item[];
  /** The field that identifies a row (default id). */
  key?: string;
  /** The field shown as the row's name (default nome). */
  label?: string;
  /** Values of a row the record does not have yet. */
  defaults?: Item;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Every declared row, in declared order, with the record's values over the defaults. */
export function normaliseRows(value: unknown, options: FixedRowsOptions): Item[] {
  const key = options.key ?? 'id';
  const items = Array.isArray(value) ? (value as Item[]) : [];
  return options.rows.map((row) => ({ ...options.defaults, ...items.find((item) => item?.[key] === row[key]), ...row }));
}

/** Same check as the schema's minimum/maximum, so the message sits under the cell that is wrong. */
function rangeError(prop: JsonSchema, value: unknown): string | undefined {
  if (typeof value === 'string') return ajvMessages.type({ type: prop.type });
  if (typeof value !== 'number') return undefined;
  if (typeof prop.minimum === 'number' && value < prop.minimum) return ajvMessages.minimum({ limit: prop.minimum });
  if (typeof prop.maximum === 'number' && value > prop.maximum) return ajvMessages.maximum({ limit: prop.maximum });
  return undefined;
}

function NumberCell(props: { id: string; label: string; value: unknown; prop: JsonSchema; disabled: boolean; onChange: (v: unknown) => void }) {
  const { id, label, value, prop, disabled, onChange } = props;
  return (
    <DecimalCell
      id={id}
      label={label}
      value={value}
      disabled={disabled}
      errorOf={() => rangeError(prop, value)}
      onText={(next) => onChange(next.trim() === '' ? undefined : (parseDecimal(next) ?? next))}
    />
  );
}

export function FixedRowsWidget({ id, value, schema, options, label, required, disabled, readonly, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const config = options as unknown as FixedRowsOptions;
  const key = config.key ?? 'id';
  const nameField = config.label ?? 'nome';
  const itemProps = ((schema.items as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>;
  const fixed = new Set(Object.keys(config.rows?.[0] ?? {}));
  const columns = Object.entries(itemProps).filter(([name]) => !fixed.has(name));
  const rows = normaliseRows(value, config);
  const invalid = (rawErrors?.length ?? 0) > 0;
  const off = Boolean(disabled || readonly);

  const itemSchema = (schema.items ?? {}) as JsonSchema;
  // A row's own conditions (items if/then/else) hide cells: a hidden cell is empty and its value dropped.
  const set = (index: number, field: string, next: unknown) => {
    const updated = rows.map((row, i) => {
      if (i !== index) return row;
      const changed: Item = { ...row, [field]: next };
      for (const hidden of hiddenProperties(itemSchema, changed)) delete changed[hidden];
      return changed;
    });
    onChange(updated);
  };

  return (
    <fieldset
      id={id}
      aria-describedby={describedBy(id, { error: invalid })}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      <legend className="form-label fs-6 mb-1">
        {label}
        <RequiredMark required={required} />
      </legend>
      <Table size="sm" className="align-middle mb-0 fixed-rows" style={{ maxWidth: 640 }}>
        <thead>
          <tr>
            <th scope="col">{(itemProps[nameField]?.title as string | undefined) ?? nameField}</th>
            {columns.map(([name, prop]) => (
              <th key={name} scope="col">
                {(prop.title as string | undefined) ?? name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const rowName = String(row[nameField] ?? row[key]);
            const hiddenCells = hiddenProperties(itemSchema, row);
            return (
              <tr key={String(row[key])}>
                <th scope="row">{rowName}</th>
                {columns.map(([name, prop]) => {
                  const cellId = `${id}_${index}_${name}`;
                  const cellLabel = `${(prop.title as string | undefined) ?? name} ${rowName}`;
                  const choices = (prop.oneOf as Array<{ const: unknown; title?: string }> | undefined)?.filter((o) => 'const' in o);
                  if (hiddenCells.has(name)) return <td key={name} />;
                  return (
                    <td key={name}>
                      {choices ? (
                        <Form.Select
                          id={cellId}
                          size="sm"
                          aria-label={cellLabel}
                          disabled={off}
                          value={String(choices.findIndex((o) => o.const === row[name]))}
                          onChange={(event) => set(index, name, choices[Number(event.target.value)]?.const)}
                        >
                          {choices.findIndex((o) => o.const === row[name]) < 0 && <option value="-1">Seleziona…</option>}
                          {choices.map((o, i) => (
                            <option key={String(o.const)} value={String(i)}>
                              {o.title ?? String(o.const)}
                            </option>
                          ))}
                        </Form.Select>
                      ) : prop.type === 'boolean' ? (
                        <Form.Check type="switch" id={cellId} aria-label={cellLabel} disabled={off} checked={row[name] === true} onChange={(e) => set(index, name, e.target.checked)} />
                      ) : prop.type === 'number' || prop.type === 'integer' ? (
                        <NumberCell id={cellId} label={cellLabel} value={row[name]} prop={prop} disabled={off} onChange={(next) => set(index, name, next)} />
                      ) : (
                        <Form.Control
                          id={cellId}
                          size="sm"
                          aria-label={cellLabel}
                          disabled={off}
                          value={isEmpty(row[name]) ? '' : String(row[name])}
                          onChange={(e) => set(index, name, e.target.value === '' ? undefined : e.target.value)}
                        />
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </fieldset>
  );
}
