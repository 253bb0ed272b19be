// A workflow drawn: states as boxes in columns (their distance from the initial state), transitions as arrows with the
// event's label and, beneath it, the guard and permission. The table after it says the same in words (the text
// alternative the SVG points to).
import { useId, useMemo } from 'react';
import Table from 'react-bootstrap/Table';
import { H, W, disegnoFlusso, xy, type Freccia as FrecciaDisegno } from '../../../shared/definitions/studio/disegno.ts';
import { schemaFlusso } from '../../../shared/definitions/studio/flussi.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a workflow file

function Freccia({ arco, d, anchor, box, marker }: FrecciaDisegno & { marker: string }) {
  const cx = box.x + box.w / 2;
  // A label moved away from its arrow (others were there) keeps a dotted lead to it.
  const far = Math.abs(box.y + box.h / 2 - anchor.ly) > 24;
  return (
    <g className="studio-arco" data-evento={arco.evento}>
      {d && <path d={d} fill="none" stroke="#495057" strokeWidth={1.4} markerEnd={`url(#${marker})`} />}
      {far && <line x1={anchor.lx} y1={anchor.ly} x2={cx} y2={box.y > anchor.ly ? box.y : box.y + box.h} stroke="#adb5bd" strokeDasharray="2 3" />}
      <text x={cx} y={box.y + 12} textAnchor="middle" fontSize={12} fill="#212529" stroke="#fff" strokeWidth={3} paintOrder="stroke">{arco.etichetta}</text>
      {arco.guardia && <text x={cx} y={box.y + 25} textAnchor="middle" fontSize={10} fill="#6c2b00" stroke="#fff" strokeWidth={3} paintOrder="stroke">{`[${arco.guardia}]`}</text>}
    </g>
  );
}

export function Diagramma({ machine, titolo }: { machine: Json; titolo: string }) {
  const schema = useMemo(() => schemaFlusso(machine), [machine]);
  // Two diagrams may be on the page (the machine in use, a draft's): ids of their own.
  const id = useId().replace(/:/g, '');
  const byState = new Map(schema.nodi.map((n) => [n.stato, n]));
  const nome = (s: string) => byState.get(s)?.nome ?? s;
  const { frecce, width, height } = useMemo(() => disegnoFlusso(schema), [schema]);
  return (
    <div data-testid="studio-diagramma" className="mb-3">
      <div className="border rounded overflow-auto bg-white" tabIndex={0} role="region" aria-label={`Diagramma: ${titolo} (scorrevole)`}>
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-titolo`} aria-describedby={`${id}-testo`}>
          <title id={`${id}-titolo`}>{`Stati e transizioni di ${titolo}`}</title>
          <defs>
            <marker id={`${id}-freccia`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" fill="#495057" />
            </marker>
          </defs>
          {frecce.map((f) => <Freccia key={f.arco.id} {...f} marker={`${id}-freccia`} />)}
          {schema.nodi.map((n) => {
            const { x, y } = xy(n);
            return (
              <g key={n.stato} className="studio-stato" data-stato={n.stato}>
                <rect x={x} y={y} width={W} height={H} rx={8} fill={n.iniziale ? '#e7f1ff' : '#f8f9fa'} stroke={n.iniziale ? '#0a58ca' : '#495057'} strokeWidth={n.iniziale ? 2.5 : 1.2} />
                {n.finale && <rect x={x + 4} y={y + 4} width={W - 8} height={H - 8} rx={6} fill="none" stroke="#495057" strokeWidth={1} />}
                <text x={x + W / 2} y={y + 24} textAnchor="middle" fontSize={13} fontWeight={600} fill="#212529">{n.nome}</text>
                <text x={x + W / 2} y={y + 42} textAnchor="middle" fontSize={10} fill="#495057">
                  {[n.iniziale ? 'iniziale' : '', n.finale ? 'finale' : '', n.restano.length ? `${n.restano.length} eventi nello stato` : ''].filter(Boolean).join(' · ')}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <details className="mt-2">
        <summary>Stati e transizioni in forma di testo</summary>
        <div className="overflow-auto" tabIndex={0} role="region" aria-label={`Transizioni di ${titolo} (scorrevole)`}>
        <Table size="sm" className="align-middle small" id={`${id}-testo`} data-testid="studio-transizioni">
          <caption className="visually-hidden">{`Transizioni di ${titolo}`}</caption>
          <thead><tr><th scope="col">Da</th><th scope="col">Evento</th><th scope="col">A</th><th scope="col">Condizione</th><th scope="col">Permessi</th></tr></thead>
          <tbody>
            {schema.archi.map((a) => (
              <tr key={a.id}><td>{nome(a.da)}</td><td>{a.etichetta}</td><td>{nome(a.a)}</td><td>{a.guardia || 'nessuna'}</td><td>{a.permessi.join(', ') || '—'}</td></tr>
            ))}
          </tbody>
        </Table>
        </div>
        <ul className="small mb-0">
          {schema.nodi.map((n) => (
            <li key={n.stato}>
              {`${n.nome}${n.iniziale ? ' (iniziale)' : ''}${n.finale ? ' (finale)' : ''}`}
              {n.restano.length ? `: restano nello stato ${n.restano.join(', ')}` : ''}
            </li>
          ))}
          {schema.globali.map((g) => <li key={g}>{g}</li>)}
        </ul>
      </details>
    </div>
  );
}
