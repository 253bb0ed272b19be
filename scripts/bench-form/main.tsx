// Bench page: the real generic form (SchemaForm) on a generated 300-field schema, timing each keystroke.
import { createRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import { SchemaForm } from '../../src/client/renderer/SchemaForm.tsx';
import type { FormUi, JsonSchema, RecordData } from '../../src/client/types.ts';

export const FIELD_COUNT = 300;

/** A mix like the real definitions: text, upper-case, codice fiscale, dates, phones, money, enums, switches. */
function generate(): { schema: JsonSchema; formUi: FormUi } {
  const properties: Record<string, JsonSchema> = {};
  const kinds = ['text', 'uppercase', 'cf', 'date', 'phone', 'money', 'select', 'switch', 'textarea', 'integer'];
  for (let i = 0; i < FIELD_COUNT; i++) {
    const name = `f${String(i).padStart(3, '0')}`;
    const kind = kinds[i % kinds.length];
    const title = `Campo ${i} (${kind})`;
    properties[name] = {
      text: { type: 'string', title, maxLength: 100 },
      uppercase: { type: 'string', title, maxLength: 100, 'x-uppercase': true },
      cf: { type: 'string', title, format: 'codice-fiscale', 'x-uppercase': true, maxLength: 16 },
      date: { type: 'string', title, format: 'date', 'x-widget': 'date' },
      phone: { type: 'string', title, format: 'telefono', 'x-widget': 'phone' },
      money: { type: 'number', title, minimum: 0, 'x-money': true, 'x-widget': 'currency' },
      select: {
        type: 'string',
        title,
        oneOf: [
          { const: 'A', title: 'Alfa' },
          { const: 'B', title: 'Beta' },
          { const: 'C', title: 'Gamma' },
        ],
      },
      switch: { type: 'boolean', title, default: false },
      textarea: { type: 'string', title, maxLength: 2000, 'x-widget': 'textarea' },
      integer: { type: 'integer', title, minimum: 0 },
    }[kind] as JsonSchema;
  }
  const names = Object.keys(properties);
  const layout = Array.from({ length: 10 }, (_, s) => ({ title: `Sezione ${s + 1}`, fields: names.slice(s * 30, s * 30 + 30) }));
  return {
    schema: { type: 'object', required: names.filter((_, i) => i % 7 === 0), properties },
    formUi: { 'ui:layout': layout, f001: { 'ui:hideWhen': { f006: 'C' } } },
  };
}

interface Sample {
  key: string;
  field: string;
  commit: number;
  frame: number;
  ok: boolean;
}

declare global {
  interface Window {
    __bench: { samples: Sample[]; ready: boolean };
  }
}

window.__bench = { samples: [], ready: false };
const { schema, formUi } = generate();
let pending: { key: string; at: number } | undefined;

// The keystroke's own timestamp (same clock as performance.now()) starts the measurement.
document.addEventListener(
  'keydown',
  (event) => {
    if (event.key.length === 1) pending = { key: event.key, at: event.timeStamp };
  },
  true,
);

function onChange(data: RecordData, fieldId?: string) {
  if (!pending) return;
  const started = pending;
  pending = undefined;
  const commit = performance.now();
  const input = document.activeElement as HTMLInputElement | null;
  const ok = Boolean(input && typeof input.value === 'string' && input.value.toUpperCase().endsWith(started.key.toUpperCase()));
  // The next frame is when the user sees the updated field.
  requestAnimationFrame(() =>
    setTimeout(() => {
      window.__bench.samples.push({
        key: started.key,
        field: fieldId ?? input?.id ?? '?',
        commit: commit - started.at,
        frame: performance.now() - started.at,
        ok,
      });
    }, 0),
  );
  void data;
}

createRoot(document.getElementById('root')!).render(
  <main className="container py-3">
    <h1 className="h4">Modulo generico: {FIELD_COUNT} campi</h1>
    <SchemaForm id="bench-form" schema={schema} formUi={formUi} initialData={{}} onChange={onChange} onValidity={() => undefined} />
  </main>,
);
requestAnimationFrame(() => (window.__bench.ready = true));
