// GESTIONE DOCUMENTI (issue 18): every stored file the user may see, by owner, collection and date, drawn by the
// generic list over GET /api/gestione_documenti; each row previews, downloads or opens its owner.
import { useCallback, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { dataProvider } from '../../api/dataProvider.ts';
import { useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import ResourceListPage from '../../renderer/ResourceListPage.tsx';
import { PageSpinner } from '../../shell/guards.tsx';
import type { RecordData } from '../../types.ts';
import { Preview } from '../../widgets/documenti/DocumentiPanel.tsx';
import type { DeskPageProps } from '../registry.ts';
import { archivioDef } from './deskDef.ts';

export const testiArchivio = { anteprima: 'Anteprima', scarica: 'Scarica', erroreScarica: 'Impossibile scaricare il documento.' };

interface Documento {
  name: string;
  url: string;
  mime_type: string;
}

export default function GestioneDocumenti({ card }: DeskPageProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const def = useMemo(() => (definitions ? archivioDef(card, definitions.resources) : undefined), [card, definitions]);
  const [preview, setPreview] = useState<Documento | null>(null);

  const scarica = useCallback(
    async (doc: Documento) => {
      try {
        const { blob, filename } = await dataProvider.download(doc.url, { download: 1 });
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = filename || doc.name;
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      } catch {
        notify('danger', testiArchivio.erroreScarica);
      }
    },
    [notify],
  );

  const rowActions = useCallback(
    (row: RecordData) => {
      const doc = row as unknown as Documento;
      return (
        <>
          <Button size="sm" variant="outline-secondary" className="py-0" aria-label={`${testiArchivio.anteprima}: ${doc.name}`} onClick={() => setPreview(doc)}>
            {testiArchivio.anteprima}
          </Button>
          <Button size="sm" variant="outline-secondary" className="py-0" aria-label={`${testiArchivio.scarica}: ${doc.name}`} onClick={() => void scarica(doc)}>
            {testiArchivio.scarica}
          </Button>
        </>
      );
    },
    [scarica],
  );

  if (!def) return <PageSpinner />;
  return (
    <>
      <ResourceListPage def={def} rowActions={rowActions} actionsWidth={230} />
      <Preview item={preview} onHide={() => setPreview(null)} />
    </>
  );
}
