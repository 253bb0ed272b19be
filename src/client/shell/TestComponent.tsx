// /test-component (spec 000 §2, developer tool), super_admin only: every widget and cell renderer of the registry,
// each with its sample schema and value, so a developer adding a widget sees it beside the others. The list is the
// registry itself: a registered widget appears here without editing this page.
import { Component, useId, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { getSessionData } from '../api/session.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import { SchemaForm } from '../renderer/SchemaForm.tsx';
import { registry, type RegistryEntry, type WidgetSample } from '../widgets/registry.ts';

const DEFAULT_SAMPLE: WidgetSample = { schema: { type: 'string' }, value: 'Esempio' };

/** One broken sample must not hide the others: its error shows in its own card. */
class SampleBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return (
        <Notice variant="danger" role="alert">
          {`Errore nel caricamento del componente: ${this.state.error.message}`}
        </Notice>
      );
    }
    return this.props.children;
  }
}

function WidgetSampleForm({ name, sample }: { name: string; sample: WidgetSample }) {
  const id = useId();
  const { definitions } = useDefinitions();
  return (
    <SchemaForm
      id={`campione-${id}`}
      schema={{ type: 'object', properties: { campione: { title: 'Campione', ...sample.schema } } }}
      formUi={{ campione: { 'ui:widget': name, ...(sample.options ? { 'ui:options': sample.options } : {}) } }}
      initialData={sample.value === undefined ? {} : { campione: sample.value }}
      resources={definitions?.resources}
    />
  );
}

function Entry({ name, entry }: { name: string; entry: RegistryEntry }) {
  const sample = entry.sample ?? DEFAULT_SAMPLE;
  const Cell = entry.cell;
  return (
    <Card className="mb-3" as="section" aria-labelledby={`widget-${name}`}>
      <Card.Header>
        <h2 id={`widget-${name}`} className="h6 mb-0">
          <code>{name}</code>{' '}
          <span className="text-body-secondary small">{[entry.widget && 'widget', entry.cell && 'cella'].filter(Boolean).join(' + ')}</span>
        </h2>
      </Card.Header>
      <Card.Body>
        <SampleBoundary>
          {entry.widget && <WidgetSampleForm name={name} sample={sample} />}
          {Cell && (
            <div className="small" data-testid={`cella-${name}`}>
              <span className="text-body-secondary me-2">Cella:</span>
              <Cell value={sample.value} column={sample.column} />
            </div>
          )}
        </SampleBoundary>
        <details className="mt-2 small">
          <summary>Schema e valore di esempio</summary>
          <pre className="mb-0">{JSON.stringify(sample, null, 2)}</pre>
        </details>
      </Card.Body>
    </Card>
  );
}

export default function TestComponent() {
  usePageMeta({ title: 'Catalogo componenti' });
  if (!getSessionData()?.roles.includes('super_admin')) {
    return (
      <Notice variant="secondary" role="alert">
        {msg.noPermission}
      </Notice>
    );
  }
  const entries = Object.entries(registry).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div>
      <p className="text-body-secondary">{`${entries.length} componenti registrati: ogni widget dei form e ogni cella delle liste, con uno schema e un valore di esempio.`}</p>
      {entries.map(([name, entry]) => (
        <Entry key={name} name={name} entry={entry} />
      ))}
    </div>
  );
}
