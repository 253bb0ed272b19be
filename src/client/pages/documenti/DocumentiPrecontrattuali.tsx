// Documents page (spec 001 §2): the insurer's downloads and pre-contract notices (set informativo, DIP/IPID, privacy)
// of every mandate product, with version and validity date; staff upload them, every user reads them.
import { routePath } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { DocumentiPanel } from '../../widgets/documenti/DocumentiPanel.tsx';

interface Prodotto {
  id: number;
  nome: string;
  compagnia: string | null;
  attivo: boolean | null;
  documenti: Array<{ id: number; corrente: boolean }>;
}

interface Answer {
  data: Prodotto[];
  can_upload: boolean;
}

export const TITOLO = 'Documenti precontrattuali';

// The page's routes (spec 001 §2), named once: every user reads the notices, not every user has the product's definition.
const ROUTES = {
  elenco: '/api/documenti-precontrattuali',
  documenti: '/api/categoria_prodotto/{id}/media',
  carica: '/api/categoria_prodotto/upload',
} as const;

export default function DocumentiPrecontrattuali() {
  usePageMeta({ title: TITOLO, icon: 'file-earmark-text' });
  const { data, error, mutate } = useRoute<Answer>(ROUTES.elenco, {});
  if (error) return <Notice variant="danger" role="alert">{error instanceof Error ? error.message : 'Errore'}</Notice>;
  if (!data) return <Spinner label="Caricamento…" />;
  if (!data.data.length) return <p className="text-body-secondary">Nessun documento precontrattuale disponibile.</p>;
  return (
    <div className="d-flex flex-column gap-3">
      <p className="text-body-secondary mb-0">
        Set informativo, DIP/IPID e informativa privacy di ogni prodotto, con la versione e la data da cui valgono: quelli in vigore sono mostrati al cliente prima dei consensi.
      </p>
      {data.data.map((p) => (
        <section key={p.id} className="card" aria-label={p.nome}>
          <div className="card-body">
            <DocumentiPanel
              title={`${p.nome}${p.compagnia ? ` – ${p.compagnia}` : ''}`}
              listPath={routePath(ROUTES.documenti, { id: p.id })}
              uploadPath={ROUTES.carica}
              ownerId={p.id}
              model="Prodotto"
              canUpload={data.can_upload}
              canDelete={data.can_upload}
              hideUploadAt={Number.POSITIVE_INFINITY}
              current={new Set(p.documenti.filter((d) => d.corrente).map((d) => d.id))}
              onChanged={() => void mutate()}
            />
          </div>
        </section>
      ))}
    </div>
  );
}
