// Custom page "quotazione": the management screen of a historic-car quotation (spec 001 §2), also served as the direct quotation.
import { Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { generatePath, Navigate, useLocation } from 'react-router-dom';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useGetOne } from '../../api/hooks.ts';
import { getSessionData } from '../../api/session.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { fillTemplate } from '../../lib/format.ts';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { ConflictAlert, LeaveGuard, SavingOverlay } from '../../renderer/FormParts.tsx';
import { displayValue } from '../../renderer/formBody.ts';
import { SchemaForm } from '../../renderer/SchemaForm.tsx';
import { StoricoTab } from '../../renderer/storicoTab.ts';
import type { JsonSchema, RecordData, ResourceDef } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { EmissionePanel, usePolizzaHeader } from './EmissionePanel.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { LinkClienteBox } from './LinkClienteBox.tsx';
import { ConsensiPanel } from './ConsensiPanel.tsx';
import { DocumentiTab } from './DocumentiTab.tsx';
import { FirmaBox } from './FirmaBox.tsx';
import { PreviewDrawer } from './PreviewDrawer.tsx';
import { t, STATO_DIRETTA } from './texts.ts';
import { quotazioneForms, useQuotazione } from './useQuotazione.ts';
import { WithFormValidators } from '../../renderer/WithFormValidators.tsx';
import { EsclusioneTab, InclusioneTab, ta } from './AppendiciTabs.tsx';
import { confirmTextOf, useRecordWorkflow } from './useRecordWorkflow.ts';
import type { AvailableEvent } from './useRecordWorkflow.ts';
import './quotazione.css';

const DIRETTA_PATH = '/modifica/quotazione_diretta/:id';

/** The collaborator's name: oneself from the session, others through the collaborator resource when readable. */
function useCollaboratorName(collaboratoreId: unknown): string {
  const { definitions } = useDefinitions();
  const session = getSessionData();
  const target = findResource(definitions, 'collaboratore');
  const id = typeof collaboratoreId === 'number' ? collaboratoreId : undefined;
  const own = id !== undefined && session?.user.collaboratore_id === id;
  const { data } = useGetOne(!own && target?.can.read ? target.resource : undefined, id);
  if (id === undefined) return '';
  if (own) return session?.user.name ?? '';
  if (data) return fillTemplate(target?.resource.recordTitle ?? '{nome} {cognome}', data);
  return `n. ${id}`;
}

function Header({ def, record, statusName }: { def: ResourceDef; record: RecordData; statusName: string }) {
  const cliente = record.persona === 'g' ? String(record.rsoc ?? '') : `${String(record.nome ?? '')} ${String(record.cognome ?? '')}`.trim();
  const collaboratore = useCollaboratorName(record.collaboratore_id);
  const items: Array<[string, string]> = [
    [t.cliente, cliente || '—'],
    [t.collaboratore, collaboratore || '—'],
    [t.quotazione, record.id !== undefined ? String(record.id) : '—'],
    [t.prodotto, displayValue(def.schema.properties?.bundle_key, record.bundle_key ?? def.schema.properties?.bundle_key?.default)],
    [t.stato, statusName],
    ...usePolizzaHeader(record),
  ];
  return (
    <dl className="quotazione-header card card-body flex-row flex-wrap gap-4 py-2 mb-3" data-testid="intestazione-quotazione">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="small text-body-secondary fw-normal">{label}</dt>
          <dd className="mb-0 fw-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface Pending {
  event: AvailableEvent;
  stato?: number;
}

/**
 * Where the gender carries the person type ("ui:personaDaSesso"), a company keeps its gender A, and what a person type
 * leaves out is only hidden (by the form's ui:hideWhen/ui:showWhen): the entity's branches that set those fields to
 * false are not applied to the form, as rjsf would drop their values and a switch to Azienda and back would lose the
 * names typed. What is stored is decided at save: hidden fields are not sent, and the server empties what the record's
 * rules hide (and sets A for a company).
 */
function genderCarriesPersona(schema: JsonSchema): JsonSchema {
  const onlyShown = (branch: unknown) => {
    const b = branch as JsonSchema | undefined;
    if (!b?.properties) return branch;
    const properties = Object.fromEntries(Object.entries(b.properties).filter(([, prop]) => (prop as unknown) !== false));
    return { ...b, properties };
  };
  const allOf = (schema.allOf as Array<Record<string, unknown>> | undefined)?.map((block) => ({ ...block, then: onlyShown(block.then), else: onlyShown(block.else) }));
  return allOf ? { ...schema, allOf: allOf.map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined))) } : schema;
}

/** The form of the screen: form.ui.json, or one of its "ui:varianti" (the direct quotation's fields) laid over it. */
function formVariant(def: ResourceDef, name: string | undefined): ResourceDef {
  const { 'ui:varianti': variants, ...base } = def.form as Record<string, unknown> & { 'ui:varianti'?: Record<string, Record<string, unknown>> };
  const variant = name ? variants?.[name] : undefined;
  if (!variant) return { ...def, form: base };
  const form: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(variant)) {
    if (key.startsWith('$')) continue;
    form[key] = key.startsWith('ui:') ? value : { ...(base[key] as Record<string, unknown> | undefined), ...(value as Record<string, unknown>) };
  }
  return { ...def, form, schema: form['ui:personaDaSesso'] ? genderCarriesPersona(def.schema) : def.schema };
}

export default function QuotazionePage({ def: resourceDef, id }: CustomPageProps) {
  const { pathname } = useLocation();
  const onDiretta = id !== undefined && pathname === generatePath(DIRETTA_PATH, { id });
  const def = useMemo(() => formVariant(resourceDef, onDiretta ? 'diretta' : undefined), [resourceDef, onDiretta]);
  const schemas = useMemo(() => {
    const { main, drawer } = quotazioneForms(def.schema, def.form);
    return [main.schema, drawer.schema];
  }, [def]);
  return (
    <WithFormValidators schemas={schemas}>
      <QuotazioneForm def={def} id={id} onDiretta={onDiretta} />
    </WithFormValidators>
  );
}

function QuotazioneForm({ def, id, onDiretta }: { def: ResourceDef; id?: string; onDiretta: boolean }) {
  const { search } = useLocation();
  const { definitions } = useDefinitions();
  const ctl = useQuotazione(def, id);
  // Page actions the vehicle widget calls (the registry refresh of a row), through the form's context.
  const widgetContext = useMemo(() => ({ actions: { aggiornaDatiAnia: ctl.refreshRegistry } }), [ctl.refreshRegistry]);
  const wf = useRecordWorkflow(def.workflow!, ctl.record, ctl.serverEvents);
  const uid = useId();
  const [pending, setPending] = useState<Pending | null>(null);
  const [nota, setNota] = useState('');
  const [notaError, setNotaError] = useState<string>();
  const [sending, setSending] = useState(false);
  const { resource } = def;

  const title =
    ctl.mode === 'new'
      ? (resource.newTitle ?? `${resource.singular ?? ''} - Nuova`)
      : (ctl.record && fillTemplate(resource.recordTitle ?? '', ctl.record)) || `${resource.singular ?? ''} ${id ?? ''}`;
  usePageMeta({ title, icon: resource.icon });

  // The direct screen asks the gender (A = company); the person type follows it (spec 001 §2).
  const personaDaSesso = def.form['ui:personaDaSesso'] as Record<string, string> | undefined;
  const { onMainChange: ctlChange, mainRef } = ctl;
  const onMainChange = useCallback(
    (data: RecordData) => {
      const persona = personaDaSesso?.[String(data.sesso)];
      if (persona && data.persona !== persona) mainRef.current?.setFieldValue('persona', persona as never);
      ctlChange(data);
    },
    [personaDaSesso, ctlChange, mainRef],
  );

  useEffect(() => {
    setNota('');
    setNotaError(undefined);
  }, [pending]);

  if (ctl.loadError) {
    return (
      <Notice variant="danger" role="alert">
        {ctl.loadError}
      </Notice>
    );
  }
  if (ctl.loading || !ctl.record) return <Spinner label={msg.loading} />;

  // Status 12 lives on the direct screen, every other status on the normal one (spec 001 §2).
  const statusId = Number(ctl.record.stato_quotazione_id);
  if (id !== undefined && onDiretta && statusId !== STATO_DIRETTA && resource.routes?.edit) {
    return <Navigate to={generatePath(resource.routes.edit.path, { id })} replace />;
  }
  if (id !== undefined && !onDiretta && statusId === STATO_DIRETTA) return <Navigate to={generatePath(DIRETTA_PATH, { id })} replace />;

  const canSave = ctl.mode === 'new' ? def.can.create : def.can.update && wf.allows('SALVA');
  // Appendices exist on an issued policy, where the machine allows them (spec 001 §2).
  const appendici = ctl.mode === 'edit' && wf.allows('APPENDICE');
  const mostraDocumenti = ctl.mode === 'edit' && (onDiretta || Number(wf.status.code) > 2 || wf.status.code === '1.5');
  const richiesto = new URLSearchParams(search).get('tab');
  const tabRichiesto = richiesto && ['raccolta', ...(mostraDocumenti ? ['documenti'] : []), ...(appendici ? ['inclusione', 'esclusione'] : [])].includes(richiesto) ? richiesto : undefined;
  const vehicleItem = ((def.schema.properties?.veicoli_storici as JsonSchema | undefined)?.items ?? {}) as JsonSchema;
  // A write made by a tab (an appendix, a restore): the record and its workflow are read again.
  const ricaricaDopoScrittura = () => {
    void ctl.reload();
    ctl.reloadHistory();
  };
  const canPremio = ctl.mode === 'new' ? def.can.create : canSave && wf.allows('MODIFICA_PREMIO');
  const needsNote = Boolean(pending && pending.event.meta.note);
  const noteRequired = pending?.event.meta.note === 'required';
  const confirmText = pending
    ? confirmTextOf(pending.event)
    : '';

  const confirm = async () => {
    if (!pending) return;
    if (noteRequired && !nota.trim()) {
      setNotaError(msg.required);
      return;
    }
    setSending(true);
    const error = await ctl.send(pending.event, { nota, stato: pending.stato });
    setSending(false);
    if (error) setNotaError(error);
    else setPending(null);
  };

  return (
    <>
      <Header def={def} record={ctl.record} statusName={wf.status.nome} />
      {ctl.conflict && <ConflictAlert onReload={() => void ctl.reload()} />}
      <Row className="g-3">
        <Col lg={8} className="min-w-0">
          {/* ?tab= opens a tab (the appendices desk opens inclusione/esclusione, the documents desk documenti). */}
          <Tabs defaultActiveKey={tabRichiesto ?? 'raccolta'} id={`${uid}-tabs`} className="mb-3">
            <Tab eventKey="raccolta" title={t.tabRaccolta}>
              <div className="position-relative" aria-busy={ctl.busy === 'save'}>
                <SchemaForm
                  key={ctl.formKey}
                  id={ctl.mainFormId}
                  formRef={ctl.mainRef}
                  schema={ctl.mainSchema}
                  formUi={def.form}
                  initialData={ctl.initialMain}
                  resources={definitions?.resources}
                  context={widgetContext}
                  extraErrors={ctl.mainErrors}
                  disabled={!canSave}
                  onChange={onMainChange}
                  onSubmit={(data) => void ctl.save(data)}
                  onInvalid={ctl.onMainInvalid}
                />
                <SavingOverlay show={ctl.busy === 'save'} />
              </div>
              {ctl.mode === 'edit' && <HistoryPanel rows={ctl.history} workflow={wf.workflow} />}
              {ctl.mode === 'edit' && id !== undefined && <ConsensiPanel id={id} />}
            </Tab>
            {/* Spec 001 §2: documents show from code above 2, and on the direct screen (code 3.5). */}
            {mostraDocumenti && (
              <Tab eventKey="documenti" title={t.tabDocumenti}>
                <DocumentiTab def={def} record={ctl.record} wf={wf} />
              </Tab>
            )}
            {appendici && (
              <Tab eventKey="inclusione" title={ta.inclusione}>
                <InclusioneTab quotazione={ctl.record} item={vehicleItem} onIssued={ricaricaDopoScrittura} />
              </Tab>
            )}
            {appendici && (
              <Tab eventKey="esclusione" title={ta.esclusione}>
                <EsclusioneTab quotazione={ctl.record} item={vehicleItem} onIssued={ricaricaDopoScrittura} />
              </Tab>
            )}
            {ctl.mode === 'edit' && ctl.record && def.resource.storico !== false && (
              <Tab eventKey="storico" title={t.tabStorico} mountOnEnter>
                <Suspense fallback={<Spinner label={msg.loading} />}>
                  <StoricoTab def={def} record={ctl.record} title={t.tabStorico} onRecord={ricaricaDopoScrittura} />
                </Suspense>
              </Tab>
            )}
          </Tabs>
        </Col>
        <Col lg={4} as="aside" aria-label={t.anteprima} className="quotazione-drawer">
          <PreviewDrawer
            ctl={ctl}
            wf={wf}
            canSave={canSave}
            canPremio={canPremio}
            saveLabel={onDiretta ? t.salva : undefined}
            formId="form-quotazione-anteprima"
            onEvent={(event, stato) => setPending({ event, stato })}
          />
          {ctl.mode === 'edit' && <LinkClienteBox record={ctl.record} ctl={ctl} wf={wf} />}
          <EmissionePanel ctl={ctl} wf={wf} def={def} />
          {ctl.mode === 'edit' && <FirmaBox record={ctl.record} onDone={ctl.reload} />}
        </Col>
      </Row>
      <ConfirmDialog
        show={pending !== null}
        title={pending?.event.meta.label ?? ''}
        text={confirmText}
        confirmLabel={pending?.event.meta.label ?? 'Conferma'}
        variant={pending?.event.type === 'RIFIUTA' ? 'danger' : 'primary'}
        busy={sending}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      >
        {needsNote && (
          <Form.Group controlId={`${uid}-nota`} className="mt-3">
            <Form.Label>
              {t.nota}
              {noteRequired && (
                <span className="text-danger" aria-hidden="true">
                  {' '}
                  *
                </span>
              )}
            </Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={nota}
              required={noteRequired}
              isInvalid={Boolean(notaError)}
              aria-invalid={notaError ? true : undefined}
              aria-describedby={notaError ? `${uid}-nota-error` : undefined}
              onChange={(e) => {
                setNota(e.target.value);
                setNotaError(undefined);
              }}
            />
            {notaError && (
              <Form.Control.Feedback type="invalid" id={`${uid}-nota-error`}>
                {notaError}
              </Form.Control.Feedback>
            )}
          </Form.Group>
        )}
      </ConfirmDialog>
      <LeaveGuard dirtyRef={ctl.dirtyRef} />
    </>
  );
}
