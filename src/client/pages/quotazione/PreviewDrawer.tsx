// Right-side drawer of the quotation: status, machine warnings, previews and premiums, notes and the actions the machine allows.
import { useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { can } from '../../api/session.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { formatMoney } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { SchemaForm } from '../../renderer/SchemaForm.tsx';
import { cellRenderer } from '../../widgets/registry.ts';
import type { FormUi, RecordData } from '../../types.ts';
import { withDerivedValues } from '../../../shared/rules.ts';
import type { JsonSchema } from '../../types.ts';
import { actionEvents } from './useRecordWorkflow.ts';
import { dialogEvents } from './EmissionePanel.tsx';
import type { AvailableEvent, RecordWorkflow } from './useRecordWorkflow.ts';
import type { useQuotazione } from './useQuotazione.ts';
import { COLOUR_COLUMN, COLOUR_TITLES, t } from './texts.ts';

const ChipCell = cellRenderer('chip', 'colore');

const VARIANTS: Record<string, string> = { APPROVA: 'success', RIFIUTA: 'outline-danger', CONFERMA: 'primary' };

interface Preventivo {
  label?: string;
  premio_base?: number;
  premio_compagnia?: number;
  diritti_del_broker?: number;
  competenze?: number;
  premio_totale?: number;
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="d-flex justify-content-between gap-2 py-1 border-bottom">
      <dt className="fw-normal">{label}</dt>
      <dd className="mb-0 font-monospace" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export interface PreviewDrawerProps {
  ctl: ReturnType<typeof useQuotazione>;
  wf: RecordWorkflow;
  canSave: boolean;
  canPremio: boolean;
  formId: string;
  /** The direct screen's save button says 'Salva' (spec 001 §2). */
  saveLabel?: string;
  onEvent: (event: AvailableEvent, stato?: number) => void;
}

export function PreviewDrawer({ ctl, wf, canSave, canPremio, formId, saveLabel, onEvent }: PreviewDrawerProps) {
  const uid = useId();
  const { definitions } = useDefinitions();
  const record: RecordData = ctl.record ?? {};
  const preventivi = (Array.isArray(record.preventivi) ? record.preventivi : []) as Preventivo[];
  const superAdmin = can('super_admin');
  const manual = wf.events.find((e) => e.meta.kind === 'manual');
  const [target, setTarget] = useState('');
  const busy = ctl.busy !== null;
  const live = ctl.drawerLive;
  const competenze = live.competenze as number | undefined;
  const forzato = live.premio_forzato as number | undefined;
  const premio = record.premio as number | null | undefined;
  // A premium line's schema: its premio_totale is "x-computed" there (premio_base + competenze, in cents).
  const lineSchema = (findResource(definitions, 'quotazione')?.schema.properties?.preventivi?.items ?? {}) as JsonSchema;

  const drawerNames = ctl.drawerNames;
  const drawerUi = useMemo<FormUi>(
    () => ({
      ...Object.fromEntries(drawerNames.map((f) => [f, { 'ui:disabled': !canSave }])),
      'ui:layout': [{ title: '', fields: drawerNames }],
      competenze: { 'ui:disabled': !canPremio },
      premio_forzato: { 'ui:disabled': !canPremio },
      note: { 'ui:disabled': !canSave, 'ui:options': { rows: 3 } },
    }),
    [canPremio, canSave, drawerNames],
  );

  const buttons = actionEvents(wf.events);
  const forcedWarning = ctl.saveWarnings.premio_forzato;

  return (
    <div className="quotazione-drawer-body d-flex flex-column gap-3">
      <h2 className="visually-hidden">{t.anteprima}</h2>
      <section aria-labelledby={`${uid}-stato`} className="card">
        <div className="card-body">
          <h3 id={`${uid}-stato`} className="h6 text-uppercase text-body-secondary">
            {t.stato}
          </h3>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <span className="badge rounded-pill text-bg-primary fs-6" data-testid="stato-quotazione">
              {wf.status.nome}
            </span>
            {record.colore !== undefined && record.colore !== null && (
              <span data-testid="colore-quotazione">
                <ChipCell value={record.colore} column={COLOUR_COLUMN} titles={COLOUR_TITLES} />
              </span>
            )}
          </div>
          {manual?.targets && ctl.mode === 'edit' && (
            <div className="d-flex align-items-end gap-2 mt-3">
              <Form.Group controlId={`${uid}-cambio`} className="flex-grow-1">
                <Form.Label className="small mb-1">{t.nuovoStato}</Form.Label>
                <Form.Select size="sm" value={target} onChange={(e) => setTarget(e.target.value)}>
                  <option value="">Seleziona…</option>
                  {manual.targets.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.nome}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Button size="sm" variant="outline-primary" disabled={!target || busy} onClick={() => onEvent(manual, Number(target))}>
                {manual.meta.label}
              </Button>
            </div>
          )}
        </div>
      </section>

      {wf.warnings.map((warning) => (
        <Notice key={warning} variant="warning" role="status" testId="avviso-workflow">
          {warning}
        </Notice>
      ))}

      <section aria-labelledby={`${uid}-preventivi`} className="card">
        <div className="card-body">
          <h3 id={`${uid}-preventivi`} className="h6 text-uppercase text-body-secondary">
            {t.preventivi}
          </h3>
          {preventivi.length === 0 && <p className="text-body-secondary small mb-2">{ctl.mode === 'new' ? t.primaSalva : t.nessunCalcolo}</p>}
          {preventivi.map((p, i) => {
            const base = p.premio_base ?? 0;
            const comp = competenze ?? p.competenze ?? 0;
            // premio_totale follows the definition's x-computed as the user types the fee (spec 001 §3).
            const totale = (withDerivedValues(lineSchema, { ...p, premio_base: base, competenze: comp }).premio_totale as number | undefined) ?? 0;
            return (
              <div key={i} className="mb-2" data-testid="preventivo">
                {p.label && <div className="fw-semibold mb-1">{p.label}</div>}
                <dl className="mb-0 small">
                  <Row label={t.premioBase} value={formatMoney(base)} testId="premio-base" />
                  {superAdmin && <Row label={t.premioCompagnia} value={formatMoney(p.premio_compagnia)} testId="premio-compagnia" />}
                  {superAdmin && <Row label={t.dirittiBroker} value={formatMoney(p.diritti_del_broker)} testId="diritti-broker" />}
                  <Row label={t.competenze} value={formatMoney(comp)} />
                  <Row label={t.totale} value={formatMoney(totale)} testId="premio-totale" />
                </dl>
              </div>
            );
          })}
          {ctl.mode === 'edit' && canSave && (
            <Button variant="outline-primary" className="mt-2" onClick={ctl.calculate} disabled={busy}>
              {ctl.busy === 'calcolo' ? <Spinner label={t.calcoloInCorso} /> : t.calcola}
            </Button>
          )}
          {ctl.calcErrors.length > 0 && (
            <Notice variant="danger" role="alert" className="mt-3 mb-0 small">
              <ul className="mb-0 ps-3">
                {ctl.calcErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </Notice>
          )}
        </div>
      </section>

      <div className="quotazione-drawer-form">
        <SchemaForm
          key={ctl.formKey}
          id={formId}
          formRef={ctl.drawerRef}
          schema={ctl.drawerSchema}
          formUi={drawerUi}
          initialData={ctl.initialDrawer}
          resources={definitions?.resources}
          extraErrors={ctl.drawerErrors}
          disabled={!canSave && !canPremio}
          onChange={ctl.onDrawerChange}
        />
        {forzato !== undefined && forzato !== null && premio !== undefined && premio !== null && (
          <p className={`small fw-semibold mb-1 ${forzato > premio ? 'text-success' : 'text-danger'}`} data-testid="premio-forzato">
            {t.premioForzato} {formatMoney(forzato)} {forzato > premio ? '>' : '≤'} {formatMoney(premio)}
          </p>
        )}
        {forcedWarning?.map((w) => (
          <Notice key={w} variant="warning" role="status" className="small py-2">
            {w}
          </Notice>
        ))}
        {canPremio && <p className="form-text mt-0">{t.competenzeNote}</p>}
      </div>

      {ctl.mode === 'edit' && !canSave && buttons.length === 0 && dialogEvents(wf.events).length === 0 && <p className="small text-body-secondary mb-0">{t.nessunaAzione}</p>}
      <div role="toolbar" aria-label={t.azioni} className="d-flex flex-wrap gap-2" data-testid="azioni-quotazione">
        {ctl.mode === 'new' && canSave && (
          <Button type="submit" form={ctl.mainFormId} variant="primary" disabled={busy}>
            {t.salva}
          </Button>
        )}
        {ctl.mode === 'edit' && canSave && (
          <Button type="submit" form={ctl.mainFormId} variant="primary" disabled={busy}>
            {saveLabel ?? wf.workflow.definition.meta.events.SALVA?.label ?? 'Aggiorna'}
          </Button>
        )}
        {ctl.mode === 'edit' &&
          buttons.map((event) => (
            <Button key={event.type} variant={VARIANTS[event.type] ?? 'outline-primary'} disabled={busy} onClick={() => onEvent(event)}>
              {event.meta.label}
            </Button>
          ))}
      </div>
    </div>
  );
}
