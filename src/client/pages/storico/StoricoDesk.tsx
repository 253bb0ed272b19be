// STORICO (issue 31): every change of every record, for whoever holds show_storico, drawn by the generic list over
// GET /api/storico with its filters and export. A row opens its record; a deleted record's entry brings it back.
import { useCallback, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { callRoute } from '../../api/dataProvider.ts';
import { useMutation } from '../../api/hooks.ts';
import { can } from '../../lib/access.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { msg } from '../../messages.ts';
import ResourceListPage from '../../renderer/ResourceListPage.tsx';
import { PageSpinner } from '../../shell/guards.tsx';
import type { RecordData } from '../../types.ts';
import type { DeskPageProps } from '../registry.ts';
import { storicoDef } from './deskDef.ts';
import { storicoRoutes } from '../../renderer/storicoTesto.ts';
import { useNavigate, generatePath } from 'react-router-dom';

interface Voce {
  id: number;
  at: string;
  risorsa: string;
  record_id: number | null;
  azione: string;
}

export const testiStorico = {
  apri: 'Apri',
  ripristina: 'Ripristina',
  domanda: (v: Voce, titolo: string) => `Ripristinare ${titolo} n. ${v.record_id}, eliminato il ${formatDateTime(v.at)}?`,
};

export default function StoricoDesk({ card }: DeskPageProps) {
  const { definitions } = useDefinitions();
  const navigate = useNavigate();
  const notify = useNotify();
  const def = useMemo(() => (definitions ? storicoDef(card, definitions.resources) : undefined), [card, definitions]);
  const { run, busy } = useMutation(def?.resource);
  const [restoring, setRestoring] = useState<Voce | null>(null);
  const target = restoring ? findResource(definitions, restoring.risorsa) : undefined;

  const rowActions = useCallback(
    (record: RecordData) => {
      const voce = record as unknown as Voce;
      const owner = findResource(definitions, voce.risorsa);
      const edit = owner?.resource.routes?.edit?.path;
      const nome = `${owner?.resource.singular ?? voce.risorsa} ${voce.record_id ?? ''}`.trim();
      return (
        <>
          {voce.azione !== 'eliminazione' && edit && voce.record_id !== null && can(owner, 'read') && (
            <Button size="sm" variant="outline-secondary" className="py-0" aria-label={`${testiStorico.apri} ${nome}`} onClick={() => navigate(generatePath(edit, { id: String(voce.record_id) }))}>
              {testiStorico.apri}
            </Button>
          )}
          {voce.azione === 'eliminazione' && can(owner, 'create') && (
            <Button size="sm" variant="outline-warning" className="py-0" aria-label={`${testiStorico.ripristina} ${nome}`} onClick={() => setRestoring(voce)}>
              {testiStorico.ripristina}
            </Button>
          )}
        </>
      );
    },
    [definitions, navigate],
  );

  const restore = async () => {
    if (!restoring || !target) return;
    const voce = restoring;
    const answer = await run(() =>
      callRoute<{ message: string; data: { model: RecordData } }>('POST', storicoRoutes(target).ripristina, { id: voce.record_id, entryId: voce.id }, { body: {} }),
    ).catch((err: unknown) => {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
      return undefined;
    });
    setRestoring(null);
    if (answer) notify('success', answer.message);
  };

  if (!def) return <PageSpinner />;
  return (
    <>
      <ResourceListPage def={def} rowActions={rowActions} actionsWidth={130} />
      <ConfirmDialog
        show={restoring !== null}
        title={testiStorico.ripristina}
        text={restoring ? testiStorico.domanda(restoring, target?.resource.singular ?? restoring.risorsa) : ''}
        confirmLabel={testiStorico.ripristina}
        variant="warning"
        busy={busy}
        onConfirm={() => void restore()}
        onCancel={() => setRestoring(null)}
      />
    </>
  );
}
