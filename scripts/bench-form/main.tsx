// Bench page: the project's generic form (SchemaForm) or plain @rjsf/core (default theme) on the same generated schema.
// ?peer=generic|plain&fields=300|1000 picks one; the keystroke timing is the page's, the same for both.
import { createRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import Form from '@rjsf/core';
import plainValidator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { SchemaForm } from '../../src/client/renderer/SchemaForm.tsx';
import { loadFormValidator } from '../../src/client/renderer/validator.ts';
import type { FormUi, JsonSchema } from '../../src/client/types.ts';

const params = new URLSearchParams(location.search);
const FIELD_COUNT = Number(params.get('fields') ?? 300);
const PEER = params.get('peer') === 'plain' ? 'plain' : 'generic';

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
  const layout = Array.from({ length: Math.ceil(FIELD_COUNT / 30) }, (_, s) => ({ title: `Sezione ${s + 1}`, fields: names.slice(s * 30, s * 30 + 30) }));
  return {
    schema: { type: 'object', required: names.filter((_, i) => i % 7 === 0), properties },
    formUi: { 'ui:layout': layout, f001: { 'ui:hideWhen': { f006: 'C' } } },
  };
}

/** Plain rjsf knows no project keywords: the same properties with the x- annotations and project formats left out. */
function plainSchema(schema: JsonSchema): RJSFSchema {
  const properties: Record<string, RJSFSchema> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(prop)) if (!key.startsWith('x-') && !(key === 'format' && value !== 'date')) copy[key] = value;
    properties[name] = copy as RJSFSchema;
  }
  return { ...(schema as RJSFSchema), properties };
}

interface Sample {
  key: string;
  field: string;
  /** Keydown to the form's onChange (the data the form reports). */
  commit: number;
  /** Keydown to the end of the next frame after the key's input event: what the user waits to see. */
  frame: number;
  ok: boolean;
}

declare global {
  interface Window {
    __bench: { samples: Sample[]; ready: boolean; peer: string; fields: number };
  }
}

window.__bench = { samples: [], ready: false, peer: PEER, fields: FIELD_COUNT };
const { schema, formUi } = generate();
let pending: { key: string; at: number; commit?: number } | undefined;

// The keystroke's own timestamp (same clock as performance.now()) starts the measurement; the frame that follows its
// input event ends it. React renders a keystroke's urgent update inside the input event, so that frame shows it.
document.addEventListener(
  'keydown',
  (event) => {
    if (event.key.length !== 1) return;
    const started = { key: event.key, at: event.timeStamp } as { key: string; at: number; commit?: number };
    pending = started;
    const input = event.target as HTMLInputElement;
    requestAnimationFrame(() =>
      setTimeout(() => {
        const frame = performance.now() - started.at;
        // Read once the frame is out: what the field shows to the user. Keys queued behind a long task may land before
        // that frame too, so the key must be in the field, not necessarily last.
        const ok = typeof input.value === 'string' && input.value.toUpperCase().includes(started.key.toUpperCase());
        const finish = () =>
          window.__bench.samples.push({ key: started.key, field: input.id, commit: (started.commit ?? performance.now()) - started.at, frame, ok });
        // The commit may come after the frame (a deferred update): wait for it, up to a second.
        if (started.commit !== undefined) finish();
        else {
          const until = performance.now() + 1000;
          const poll = () => (started.commit !== undefined || performance.now() > until ? finish() : setTimeout(poll, 1));
          poll();
        }
      }, 0),
    );
  },
  true,
);

function onChange() {
  if (pending && pending.commit === undefined) pending.commit = performance.now();
}

// The generic form validates with the module the server compiled for its schema, loaded before it shows (as the app's
// WithFormValidators does); plain rjsf compiles its own in the page.
const validatorReady = PEER === 'plain' ? Promise.resolve() : loadFormValidator(schema as Parameters<typeof loadFormValidator>[0]);
void validatorReady.then(() => createRoot(document.getElementById('root')!).render(
  <main className="container py-3">
    <h1 className="h4">
      {PEER === 'plain' ? 'rjsf semplice' : 'Modulo generico'}: {FIELD_COUNT} campi
    </h1>
    {PEER === 'plain' ? (
      <Form className="schema-form" schema={plainSchema(schema)} validator={plainValidator} onChange={onChange} />
    ) : (
      <SchemaForm id="bench-form" schema={schema} formUi={formUi} initialData={{}} onChange={onChange} onValidity={() => undefined} />
    )}
  </main>,
)).then(() => requestAnimationFrame(() => (window.__bench.ready = true)));
