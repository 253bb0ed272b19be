// The 'Modifiche' cell of the Storico desk: each change of the row's entry as its record's timeline writes it.
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { modificaTesto, useStoricoLabels, type StoricoModifica } from '../../renderer/storicoTesto.ts';
import type { CellProps } from '../../widgets/cells.tsx';

export function ModificheCell({ value, data }: CellProps) {
  const { definitions } = useDefinitions();
  const modifiche = Array.isArray(value) ? (value as StoricoModifica[]) : [];
  const risorsa = String(data?.risorsa ?? '');
  const def = findResource(definitions, risorsa);
  const labels = useStoricoLabels(() => def, [{ risorsa, modifiche }]);
  return <span className="text-wrap">{modifiche.map((m) => modificaTesto(def, m, labels)).join('; ')}</span>;
}
