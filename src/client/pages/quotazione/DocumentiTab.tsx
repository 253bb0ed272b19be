// 'Documenti' tab of the quotation (spec 001 §2): the generic documents panel on the quotation's file routes, and
// the regeneration of the issue documents (the insurer's contract, a new version each time).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { can } from '../../api/session.ts';
import { callRoute, mediaPaths } from '../../api/dataProvider.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { Notice } from '../../lib/ui.tsx';
import type { RecordData, ResourceDef } from '../../types.ts';
import { DocumentiPanel } from '../../widgets/documenti/DocumentiPanel.tsx';
import type { RecordWorkflow } from './useRecordWorkflow.ts';

const CON_DOCUMENTI_EMISSIONE = [7, 8, 9, 10, 11];

export function DocumentiTab({ def, record, wf }: { def: ResourceDef; record: RecordData; wf: RecordWorkflow }) {
  const id = Number(record.id);
  const [version, setVersion] = useState(0);
  const [esito, setEsito] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const statusId = Number(record.stato_quotazione_id);
  const rigenera = async () => {
    setBusy(true);
    try {
      const res = await callRoute<{ message: string }>('POST', QUOTAZIONE_ROUTES.rigeneraDocumenti, { id });
      setEsito({ ok: true, text: res.message });
      setVersion((v) => v + 1);
    } catch (e) {
      setEsito({ ok: false, text: e instanceof Error ? e.message : 'Errore' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {CON_DOCUMENTI_EMISSIONE.includes(statusId) && can('emettere_polizza_auto_storica|conferma_quotazione') && (
        <div className="mb-2">
          <Button size="sm" variant="outline-primary" disabled={busy} onClick={() => void rigenera()}>
            Rigenera documenti di emissione
          </Button>
        </div>
      )}
      {esito && <Notice variant={esito.ok ? 'success' : 'danger'} role={esito.ok ? 'status' : 'alert'}>{esito.text}</Notice>}
      <DocumentiPanel
        listPath={mediaPaths(def.resource, id).list}
        uploadPath={mediaPaths(def.resource, id).upload}
        ownerId={id}
        model="Quotazione"
        canUpload={def.can.update && wf.allows('DOCUMENTO_CARICA')}
        canDelete={def.can.update && wf.allows('DOCUMENTO_ELIMINA')}
        hideUploadAt={4}
        refreshKey={`${version}-${String(record.version)}`}
      />
    </>
  );
}
