// Custom page "polizza": the policy form (spec 002 §2.3) with the gross premium (x-computed) recomputed as the user types,
// the product filtered by branch, company and supplier, the commission panel, and in edit mode the titles with payments.
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useGetOne } from '../../api/hooks.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { fillTemplate } from '../../lib/format.ts';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { LeaveGuard } from '../../renderer/FormParts.tsx';
import { ResourceFormBody } from '../../renderer/ResourceFormBody.tsx';
import { StoricoTab } from '../../renderer/storicoTab.ts';
import { resourceFormSchemas, useResourceForm } from '../../renderer/useResourceForm.ts';
import { WithFormValidators } from '../../renderer/WithFormValidators.tsx';
import type { RecordData } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { PolizzaFormData } from './context.ts';
import { DocumentoSingolo } from '../../widgets/documenti/DocumentoSingolo.tsx';
import { PannelloProvvigioni } from './PannelloProvvigioni.tsx';
import { TitoliPolizza } from './TitoliPolizza.tsx';

const FORM_ID = 'form-polizza';
// The two single-file areas of edit mode (spec 002 §2.3), collections of schemas/polizza/resource.json "media".
const DOCUMENTI = ['carta_identita', 'contratto'] as const;

/** Edit title: the policy number with the customer and the product (spec 002 §2.3). */
function useTitle(record: RecordData | undefined, mode: 'new' | 'edit'): string {
  const { definitions } = useDefinitions();
  const clienteDef = findResource(definitions, 'cliente');
  const clienteId = typeof record?.cliente_id === 'number' ? record.cliente_id : undefined;
  const { data: cliente } = useGetOne(clienteDef?.can.read ? clienteDef.resource : undefined, clienteId);
  if (mode === 'new') return 'Dati Polizza';
  if (!record) return 'Polizza';
  const nome = cliente ? fillTemplate(clienteDef?.resource.recordTitle ?? '{nome} {cognome}', cliente).trim() : clienteId ? `cliente n. ${clienteId}` : '';
  return [`Polizza ${String(record.polizza_numero ?? record.id ?? '')}`.trim(), nome, String(record.prodotto_label ?? '')].filter(Boolean).join(' - ');
}

export default function PolizzaPage({ def, id }: CustomPageProps) {
  const schemas = useMemo(() => resourceFormSchemas(def), [def]);
  return (
    <WithFormValidators schemas={schemas}>
      <PolizzaPageBody def={def} id={id} />
    </WithFormValidators>
  );
}

function PolizzaPageBody({ def, id }: CustomPageProps) {
  const navigate = useNavigate();
  const { definitions } = useDefinitions();
  const titoloDef = findResource(definitions, 'titolo');
  const [titoliKey, setTitoliKey] = useState(0);
  // After a create the generic controller moves to the edit route (/modifica/polizza/{id}).
  const ctl = useResourceForm(def, id, { createdMessage: 'polizza inserito' });
  // Every save answers a new record; dates, frazionamento or amounts may have regenerated the titles.
  useEffect(() => setTitoliKey((k) => k + 1), [ctl.record]);
  const title = useTitle(ctl.record, ctl.mode);
  usePageMeta({ title, icon: def.resource.icon });

  const [values, setValues] = useState<RecordData>(ctl.initial);
  useEffect(() => setValues(ctl.initial), [ctl.initial]);
  const { onChange: formChanged } = ctl;
  // The gross premium is an x-computed field: SchemaForm recomputes it as the user types; the panel follows these values.
  const onChange = useCallback(
    (data: RecordData) => {
      formChanged(data);
      setValues(data);
    },
    [formChanged],
  );

  // A historic-car policy copied from the insurer's issue is read-only here and opens its quotation.
  const autoStorica = Boolean(ctl.record?.polizza_auto_storica_id);
  const shownDef = useMemo(() => (autoStorica ? { ...def, can: { ...def.can, update: false, delete: false } } : def), [def, autoStorica]);
  const quotazioneDef = findResource(definitions, 'quotazione');
  const quotazioneEdit = quotazioneDef?.resource.routes?.edit?.path;

  if (ctl.loadError) {
    return (
      <Notice variant="danger" role="alert">
        {ctl.loadError}
      </Notice>
    );
  }
  if (ctl.loading) return <Spinner label={msg.loading} />;
  return (
    <>
      {autoStorica && (
        <Notice variant="info" role="status" testId="polizza-auto-storica">
          Polizza auto storica emessa tramite la compagnia: si consulta e si gestisce dalla{' '}
          {quotazioneDef?.can.read && quotazioneEdit ? (
            <Link to={quotazioneEdit.replace(':id', String(ctl.record!.quotazione_id))}>quotazione n. {String(ctl.record!.quotazione_id)}</Link>
          ) : (
            `quotazione n. ${String(ctl.record!.quotazione_id)}`
          )}
          .
        </Notice>
      )}
      <PolizzaFormData.Provider value={values}>
        <ResourceFormBody def={shownDef} id={id} formId={FORM_ID} ctl={{ ...ctl, onChange }} onCancel={() => navigate(def.resource.routes?.list?.path ?? '/polizza')} />
      </PolizzaFormData.Provider>
      {id && ctl.record && (
        <section className="mt-3" aria-labelledby="documenti-polizza">
          <h2 id="documenti-polizza" className="h5">Documenti</h2>
          <div className="row g-2">
            {DOCUMENTI.map((collection) => (
              <div key={collection} className="col-md-6">
                <DocumentoSingolo def={def} ownerId={id} collection={collection} canEdit={shownDef.can.update} />
              </div>
            ))}
          </div>
        </section>
      )}
      <PannelloProvvigioni data={values} schema={def.schema} />
      {id && titoloDef?.can.list && <TitoliPolizza titoloDef={titoloDef} polizzaId={id} refreshKey={titoliKey} onPaid={() => undefined} />}
      {id && ctl.record && def.resource.storico !== false && (
        <div className="mt-3">
          <h2 className="h5">Storico</h2>
          <Suspense fallback={<Spinner label={msg.loading} />}>
            <StoricoTab def={def} record={ctl.record} title="Storico della polizza" onRecord={ctl.showRecord} />
          </Suspense>
        </div>
      )}
      <LeaveGuard dirtyRef={ctl.dirtyRef} />
    </>
  );
}
