// 'collaboratore-provvigioni' page, the Provvigioni tab of a collaborator: the commission lines as saved, coloured by the list's thresholds.
import Table from 'react-bootstrap/Table';
import { Notice } from '../../lib/ui.tsx';
import type { JsonSchema } from '../../types.ts';
import { thresholdVariant } from '../../widgets/cells.tsx';
import type { CustomPageProps } from '../registry.ts';

const percent = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });
const LEVELS: Record<string, string> = { success: 'verde', warning: 'arancione', danger: 'rosso' };

function Percent({ value, limits }: { value: unknown; limits?: [number, number] }) {
  if (value === null || value === undefined || value === '') return <span className="text-body-secondary">non impostata</span>;
  const text = `${percent.format(Number(value))}%`;
  const variant = thresholdVariant(limits, value);
  if (!variant) return <>{text}</>;
  return (
    <span className={`badge rounded-pill text-bg-${variant}`}>
      {text}
      <span className="visually-hidden"> ({LEVELS[variant]})</span>
    </span>
  );
}

export default function ProvvigioniCollaboratore({ def, record }: CustomPageProps) {
  if (!record) return null;
  const props = def.schema.properties ?? {};
  const itemProps = (props.provvigioni_settori?.items as JsonSchema | undefined)?.properties ?? {};
  const tipi = new Map(((itemProps.tipo_provvigione?.oneOf ?? []) as Array<{ const: unknown; title?: string }>).map((o) => [o.const, o.title ?? String(o.const)]));
  // The same traffic lights as the collaborator list (list.json thresholds).
  const column = def.list.columns.find((c) => c.field === 'provvigioni_settori' && c.thresholds);
  const sectors = (Array.isArray(record.provvigioni_settori) ? (record.provvigioni_settori as Array<Record<string, unknown>>) : [])
    .slice()
    .sort((a, b) => Number(a.id) - Number(b.id));
  const title = (name: string, fallback: string) => (props[name]?.title as string | undefined) ?? fallback;

  return (
    <section aria-labelledby="provvigioni-title">
      <h2 id="provvigioni-title" className="h5 mb-3">
        Provvigioni del collaboratore
      </h2>
      {sectors.length === 0 && (
        <Notice variant="secondary" role="status">
          Nessuna provvigione per settore salvata: impostala nella scheda «Dati Del collaboratore».
        </Notice>
      )}
      <Table size="sm" className="align-middle" style={{ maxWidth: 720 }} aria-labelledby="provvigioni-title">
        <thead>
          <tr>
            <th scope="col">Voce</th>
            <th scope="col">Tipo provvigione</th>
            <th scope="col">Percentuale</th>
          </tr>
        </thead>
        <tbody>
          {sectors.map((sector) => (
            <tr key={String(sector.id)} data-testid="provvigione-settore">
              <th scope="row" className="fw-normal">
                Settore {String(sector.nome)}
              </th>
              <td>{tipi.get(sector.tipo_provvigione) ?? String(sector.tipo_provvigione ?? '')}</td>
              <td>
                <Percent value={sector.perc_provvigione} limits={column?.thresholds?.[String(sector.nome)]} />
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="fw-normal">
              {title('percProvvigioneCompetenze', '% Competenze')}
            </th>
            <td>—</td>
            <td>
              <Percent value={record.percProvvigioneCompetenze} />
            </td>
          </tr>
          <tr>
            <th scope="row" className="fw-normal">
              {title('precProvvigioneDiritti', '% Diritti')}
            </th>
            <td>—</td>
            <td>
              <Percent value={record.precProvvigioneDiritti} />
            </td>
          </tr>
        </tbody>
      </Table>
      <p className="small text-body-secondary">Le percentuali si modificano nella scheda «Dati Del collaboratore», sezione Provvigioni.</p>
    </section>
  );
}
