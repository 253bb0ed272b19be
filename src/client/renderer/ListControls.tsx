// List toolbar pieces: debounced search, per-column filters, column chooser and pager.
import { useEffect, useId, useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Pagination from 'react-bootstrap/Pagination';
import Row from 'react-bootstrap/Row';
import { Icon } from '../lib/Icon.tsx';
import type { JsonSchema, ListColumn } from '../types.ts';
import { PAGE_SIZES } from './listParams.ts';
import { DateInput } from '../widgets/inputs.tsx';
import { optionTitles } from '../../shared/enumTitle.ts';
import { isCalendarDate } from '../../shared/dates.ts';

/** Generic list filter debounce (spec 000 §9). */
export const FILTER_DEBOUNCE_MS = 1000;

/** Text typed now, applied after a pause; follows the URL when it changes (back button). */
function useDebouncedText(value: string, apply: (text: string) => void, delay = FILTER_DEBOUNCE_MS) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const debounced = useDebouncedCallback((next: string) => {
    if (next !== value) apply(next);
  }, delay);
  const change = (next: string) => {
    setText(next);
    debounced(next);
  };
  // Enter applies at once.
  const flush = () => {
    debounced.cancel();
    if (text !== value) apply(text);
  };
  return { text, change, flush };
}

export function SearchBox({ value, onSearch, label }: { value: string; onSearch: (text: string) => void; label: string }) {
  const id = useId();
  const { text, change, flush } = useDebouncedText(value, onSearch);
  return (
    <Form role="search" onSubmit={(e) => (e.preventDefault(), flush())}>
      <Form.Label htmlFor={id} className="visually-hidden">
        {label}
      </Form.Label>
      <InputGroup>
        <InputGroup.Text aria-hidden="true">
          <Icon name="search" size={16} />
        </InputGroup.Text>
        <Form.Control id={id} type="search" placeholder="Cerca…" value={text} onChange={(e) => change(e.target.value)} autoComplete="off" />
      </InputGroup>
    </Form>
  );
}

// Each option by its title, as the cells read it.
function options(prop: JsonSchema | undefined): Array<{ value: string; label: string }> {
  return [...(optionTitles(prop as Parameters<typeof optionTitles>[0]) ?? [])].map(([value, label]) => ({ value: String(value), label }));
}

function FilterControl({ column, prop, value, onChange }: { column: ListColumn; prop?: JsonSchema; value: string; onChange: (v: string) => void }) {
  const id = useId();
  const debounced = useDebouncedText(value, onChange);
  let control;
  if (column.filter === 'set' || column.filter === 'boolean') {
    const choices =
      column.filter === 'boolean'
        ? [
            { value: 'true', label: 'Sì' },
            { value: 'false', label: 'No' },
          ]
        : options(prop);
    control = (
      <Form.Select id={id} size="sm" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Tutti</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </Form.Select>
    );
  } else if (column.filter === 'date') {
    // A complete date (or none) filters; a wrong one stays on screen with its message.
    control = <DateInput id={id} size="sm" value={value} onChange={(v) => (v === undefined || isCalendarDate(v)) && onChange(v ?? '')} />;
  } else {
    control = (
      <Form.Control
        id={id}
        size="sm"
        type="text"
        inputMode={column.filter === 'number' ? 'numeric' : undefined}
        value={debounced.text}
        onChange={(e) => debounced.change(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), debounced.flush())}
        autoComplete="off"
      />
    );
  }
  return (
    <Form.Group as={Col} xs={12} sm={6} lg={3} className="mb-2">
      <Form.Label htmlFor={id} className="small mb-1">
        {column.headerName}
      </Form.Label>
      {control}
    </Form.Group>
  );
}

export function FilterPanel(props: {
  columns: ListColumn[];
  schema: JsonSchema;
  filters: Record<string, string>;
  onChange: (field: string, value: string) => void;
  onClear: () => void;
}) {
  const { columns, schema, filters, onChange, onClear } = props;
  const filterable = columns.filter((c) => c.filter);
  if (!filterable.length) return null;
  return (
    <fieldset className="border rounded p-2 mb-3">
      <legend className="visually-hidden">Filtri</legend>
      <Row className="align-items-end">
        {filterable.map((column) => (
          <FilterControl
            key={column.field}
            column={column}
            prop={schema.properties?.[column.field]}
            value={filters[column.field] ?? ''}
            onChange={(v) => onChange(column.field, v)}
          />
        ))}
        <Col xs="auto" className="mb-2">
          <Button size="sm" variant="outline-secondary" onClick={onClear}>
            Azzera filtri
          </Button>
        </Col>
      </Row>
    </fieldset>
  );
}

export function ColumnChooser({
  columns,
  hidden,
  onToggle,
}: {
  columns: ListColumn[];
  hidden: Set<string>;
  onToggle: (field: string, visible: boolean) => void;
}) {
  return (
    <Dropdown autoClose="outside">
      <Dropdown.Toggle variant="outline-secondary" size="sm" id="column-chooser">
        <Icon name="columns" size={16} /> Colonne
      </Dropdown.Toggle>
      <Dropdown.Menu className="px-3 py-2" style={{ minWidth: 220 }}>
        {columns.map((column) => (
          <Form.Check
            key={column.field}
            type="checkbox"
            id={`col-${column.field}`}
            label={column.headerName}
            checked={!hidden.has(column.field)}
            onChange={(e) => onToggle(column.field, e.target.checked)}
          />
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}

function pageWindow(page: number, last: number, size = 5): number[] {
  const start = Math.max(1, Math.min(page - Math.floor(size / 2), last - size + 1));
  return Array.from({ length: Math.min(size, last) }, (_, i) => start + i);
}

export function Pager(props: {
  page: number;
  lastPage: number;
  total: number;
  /** total is the server's lower bound of a large list, not a count. */
  totalIsEstimate?: boolean;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (n: number) => void;
}) {
  const { page, lastPage, total, totalIsEstimate, perPage, onPage, onPerPage } = props;
  const id = useId();
  // -1 (every row) sorts last and reads 'Tutti'.
  const rank = (n: number) => (n === -1 ? Infinity : n);
  const sizes = PAGE_SIZES.includes(perPage) ? PAGE_SIZES : [...PAGE_SIZES, perPage].sort((a, b) => rank(a) - rank(b));
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-2">
      <div className="small text-body-secondary" aria-live="polite">
        {totalIsEstimate ? `più di ${total} elementi` : total === 1 ? '1 elemento' : `${total} elementi`} · pagina {Math.min(page, lastPage)} di{' '}
        {totalIsEstimate ? `più di ${lastPage}` : lastPage}
      </div>
      <div className="d-flex align-items-center gap-2">
        <Form.Label htmlFor={id} className="small mb-0">
          Righe per pagina
        </Form.Label>
        <Form.Select id={id} size="sm" style={{ width: 'auto' }} value={perPage} onChange={(e) => onPerPage(Number(e.target.value))}>
          {sizes.map((n) => (
            <option key={n} value={n}>
              {n === -1 ? 'Tutti' : n}
            </option>
          ))}
        </Form.Select>
        <nav aria-label="Paginazione">
          <Pagination size="sm" className="mb-0">
            <Pagination.Prev disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Pagina precedente" />
            {pageWindow(page, lastPage).map((n) => (
              <Pagination.Item key={n} active={n === page} onClick={() => onPage(n)} aria-label={`Pagina ${n}`} aria-current={n === page ? 'page' : undefined}>
                {n}
              </Pagination.Item>
            ))}
            <Pagination.Next disabled={page >= lastPage} onClick={() => onPage(page + 1)} aria-label="Pagina successiva" />
          </Pagination>
        </nav>
      </div>
    </div>
  );
}
