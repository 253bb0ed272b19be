// 'expand' list cell: a toggle that shows the row's nested items (an array of objects) and the list.json "details" fields of the row.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Popover from 'react-bootstrap/Popover';
import type { CellProps } from './cells.tsx';
import type { JsonSchema } from '../types.ts';
import { optionTitles } from '../../shared/enumTitle.ts';

const NUMBER = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "importo_netto" → "Importo netto": only for a key its schema gives no title. */
function heading(key: string): string {
  const words = key.replace(/_id$/, '').split('_').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A field's title in its schema, else its name made readable. */
function titleIn(schema: JsonSchema | undefined, key: string): string {
  const title = schema?.properties?.[key]?.title;
  return typeof title === 'string' ? title : heading(key);
}

function text(value: unknown, prop?: JsonSchema): string {
  if (value === null || value === undefined) return '';
  const option = optionTitles(prop as Parameters<typeof optionTitles>[0])?.get(value);
  if (option) return option;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : NUMBER.format(value);
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  return String(value);
}

export function ExpandCell({ value, column, data, prop, schema }: CellProps) {
  const item = prop?.items as JsonSchema | undefined;
  const [open, setOpen] = useState(false);
  const items = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
  const keys = [...new Set(items.flatMap((item) => (item && typeof item === 'object' ? Object.keys(item) : [])))];
  const details = (column?.details ?? []).map((field) => [field, data?.[field]] as const).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const id = `espandi-${String(data?.id ?? '')}-${column?.field ?? ''}`;
  const popover = (
    <Popover id={id} style={{ maxWidth: 560 }}>
      <Popover.Body>
        {details.map(([field, v]) => (
          <div key={field} className="mb-1">
            <span className="text-body-secondary">{titleIn(schema, field)}: </span>
            <strong>{text(v, schema?.properties?.[field])}</strong>
          </div>
        ))}
        {items.length ? (
          <table className="table table-sm mb-0">
            <thead>
              <tr>
                {keys.map((k) => (
                  <th key={k}>{titleIn(item, k)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((row, i) => (
                <tr key={i}>
                  {keys.map((k) => (
                    <td key={k} className={typeof row[k] === 'number' ? 'text-end font-monospace' : undefined}>
                      {text(row[k], item?.properties?.[k])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <div className="text-body-secondary">{`${column?.headerName || titleIn(schema, column?.field ?? '')}: nessun elemento`}</div>
        )}
      </Popover.Body>
    </Popover>
  );
  return (
    <OverlayTrigger trigger="click" placement="right" rootClose show={open} onToggle={setOpen} overlay={popover}>
      <Button size="sm" variant="outline-secondary" className="py-0 px-1" aria-expanded={open} aria-controls={open ? id : undefined} aria-label={open ? 'Chiudi dettagli' : 'Mostra dettagli'}>
        {open ? '−' : '+'}
      </Button>
    </OverlayTrigger>
  );
}
