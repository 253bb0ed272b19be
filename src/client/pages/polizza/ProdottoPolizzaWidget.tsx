// 'prodotto_polizza' widget: the mandate products of the chosen supplier, contractual company and branch (GET /api/mandato_prodotto_in_polizza/search).
import Form from 'react-bootstrap/Form';
import type { WidgetProps } from '@rjsf/utils';
import { useRoute } from '../../api/hooks.ts';
import { POLIZZA_ROUTES } from './routes.ts';
import { describedBy } from '../../widgets/aria.ts';
import { usePolizzaFormData } from './context.ts';

export interface ProdottoMandato {
  id: number;
  label: string;
  ramo_id: number | null;
  compagnia_contrattuale_id: number;
  mandato: { percentuale_provvigione_attiva: string; compagnia_fornitore_id: number };
}

const idOf = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);

export default function ProdottoPolizzaWidget({ id, htmlName, value, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const data = usePolizzaFormData();
  const fornitore = idOf(data.fornitore_id);
  const compagnia = idOf(data.compagnia_contrattuale_id);
  const ramo = idOf(data.ramo_id);
  const query = { compagnia_fornitore_id: fornitore, 'prodotto[compagnia_contrattuale_id]': compagnia, ramo_id: ramo };
  const { data: found, isLoading } = useRoute<{ data: ProdottoMandato[] }>(POLIZZA_ROUTES.prodottiInPolizza, {}, {}, { query });
  const options = found?.data ?? [];
  const invalid = (rawErrors?.length ?? 0) > 0;
  const current = typeof value === 'number' ? value : undefined;
  const missing = current !== undefined && found && !options.some((o) => o.id === current);
  const decode = (raw: string) => (raw === '' ? undefined : Number(raw));
  return (
    <>
      <Form.Select
        id={id}
        name={htmlName || id}
        value={current === undefined ? '' : String(current)}
        disabled={disabled || readonly}
        required={required}
        isInvalid={invalid}
        aria-invalid={invalid || undefined}
        aria-busy={isLoading || undefined}
        aria-describedby={describedBy(id, { error: invalid })}
        onChange={(event) => onChange(decode(event.target.value))}
        onBlur={(event) => onBlur(id, decode(event.target.value))}
        onFocus={(event) => onFocus(id, decode(event.target.value))}
      >
        <option value="">{isLoading ? 'Caricamento…' : options.length ? 'Seleziona…' : 'Nessun prodotto per ramo, compagnia e fornitore scelti'}</option>
        {missing && <option value={String(current)}>{`Prodotto n. ${current} (non compatibile con la scelta)`}</option>}
        {options.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.label}
          </option>
        ))}
      </Form.Select>
      {!fornitore || !compagnia ? <Form.Text>Scegli fornitore e compagnia contrattuale per restringere i prodotti.</Form.Text> : null}
    </>
  );
}
