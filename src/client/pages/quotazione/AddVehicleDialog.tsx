// Add-vehicle dialog (spec 001 §2): choose a make, search its models, then plate, ANIA type and theft cover.
// It has no <form> of its own: it is rendered inside the quotation's rjsf form, and forms must not nest.
import { useEffect, useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useDebounce } from 'use-debounce';
import { useRoute } from '../../api/hooks.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { formatMoney } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import type { JsonSchema } from '../../types.ts';
import { colourCode, COLOUR_TITLES, t } from './texts.ts';
import { hiddenProperties } from '../../../shared/rules.ts';
import { annoMessage, isAnnoValido } from '../../../shared/validators/anno.ts';

/** A historic vehicle as the quotation stores it (Italian field set). */
export interface Vehicle {
  id?: string;
  auto_storica_id?: number;
  marca?: string;
  modello?: string;
  cilindrata?: number;
  anno?: number;
  valore?: number;
  colore?: string;
  furto?: boolean;
  targa?: string;
  tipologia_targa?: string;
  tipologia_ania?: string;
  quintali?: number;
  operazione?: string;
  cfisc?: string;
}

/** A catalogue model from GET /api/autostoriche/search (colour masked for who may not see it). */
interface Model {
  id: number;
  marca: string;
  modello: string;
  anno?: number | null;
  anno_da?: number | null;
  anno_a?: number | null;
  cilindrata?: number | null;
  cilindrata_da?: number | null;
  cilindrata_a?: number | null;
  valore_b?: number | null;
  colore?: string | null;
  tipologia?: string | null;
}

const SEARCH_DEBOUNCE_MS = 300;

function years(m: Model): string {
  if (m.anno) return String(m.anno);
  if (m.anno_da || m.anno_a) return `${m.anno_da ?? '…'}–${m.anno_a ?? '…'}`;
  return '';
}

function describe(m: Model): string {
  const cc = m.cilindrata ?? m.cilindrata_da;
  const colour = COLOUR_TITLES.get(colourCode(m.colore));
  return [m.modello, years(m), cc ? `${cc} cc` : '', m.valore_b !== null && m.valore_b !== undefined ? formatMoney(m.valore_b) : '', colour ?? '']
    .filter(Boolean)
    .join(' · ');
}

function options(prop: JsonSchema | undefined): Array<{ value: string; label: string }> {
  return ((prop?.oneOf as Array<{ const: unknown; title?: string }> | undefined) ?? []).map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
}

type Errors = Partial<Record<'marca' | 'modello' | 'anno' | 'targa' | 'tipologia_ania', string>>;

export function AddVehicleDialog({ show, item, onAdd, onCancel }: { show: boolean; item: JsonSchema; onAdd: (v: Vehicle) => void; onCancel: () => void }) {
  const uid = useId();
  const fields = item.properties ?? {};
  const label = (name: string, fallback: string) => (fields[name]?.title as string | undefined) ?? fallback;
  const [marca, setMarca] = useState('');
  const [search, setSearch] = useState('');
  const [typed] = useDebounce(search.trim(), SEARCH_DEBOUNCE_MS);
  const [model, setModel] = useState<Model>();
  const [anno, setAnno] = useState('');
  const [targa, setTarga] = useState('');
  const [tipologiaTarga, setTipologiaTarga] = useState('');
  const [tipologiaAnia, setTipologiaAnia] = useState('');
  const [furto, setFurto] = useState(false);
  const [quintali, setQuintali] = useState('');
  // Quintali only for the vehicle types the definition's condition allows (type C, spec 001 §5).
  const showQuintali = !hiddenProperties(item, { tipologia_ania: tipologiaAnia }).has('quintali') && Boolean(fields.quintali);
  const [errors, setErrors] = useState<Errors>({});

  // A fresh dialog each time it opens.
  useEffect(() => {
    if (!show) return;
    setMarca('');
    setSearch('');
    setModel(undefined);
    setAnno('');
    setTarga('');
    setTipologiaTarga('');
    setTipologiaAnia('');
    setQuintali('');
    setFurto(false);
    setErrors({});
  }, [show]);

  // The makes once the dialog opens; the models of the chosen make, narrowed by the typed words.
  const marcheAnswer = useRoute<{ data: string[] }>(QUOTAZIONE_ROUTES.marche, show ? {} : null);
  const modelsAnswer = useRoute<{ data: Model[] }>(QUOTAZIONE_ROUTES.modelli, show && marca ? {} : null, { keepPreviousData: true }, { query: { 'filter[marca]': marca, search: typed } });
  const marche = marcheAnswer.data?.data ?? [];
  const models = show && marca ? (modelsAnswer.data?.data ?? []) : [];
  const searching = modelsAnswer.isLoading || modelsAnswer.isValidating;
  const failure = marcheAnswer.error ?? modelsAnswer.error;
  const loadError = failure ? (failure instanceof Error ? failure.message : msg.genericError) : undefined;

  const choose = (m: Model) => {
    setModel(m);
    setAnno(String(m.anno ?? m.anno_da ?? ''));
    if (m.tipologia && options(fields.tipologia_ania).some((o) => o.value === m.tipologia)) setTipologiaAnia(m.tipologia);
    setErrors((e) => ({ ...e, modello: undefined }));
  };

  const add = () => {
    const next: Errors = {};
    const year = Number(anno);
    const min = typeof fields.anno?.minimum === 'number' ? fields.anno.minimum : undefined;
    if (!marca) next.marca = msg.required;
    if (!model) next.modello = t.veicoli.scegliModello;
    if (!anno.trim()) next.anno = msg.required;
    else if (!isAnnoValido(year, min)) next.anno = annoMessage(min);
    if (!targa.trim()) next.targa = msg.required;
    if (!tipologiaAnia) next.tipologia_ania = msg.required;
    setErrors(next);
    if (Object.values(next).some(Boolean) || !model) return;
    const colore = colourCode(model.colore);
    const cilindrata = model.cilindrata ?? model.cilindrata_da ?? undefined;
    onAdd({
      id: typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : String(Date.now()),
      auto_storica_id: model.id,
      marca: model.marca,
      modello: model.modello,
      ...(cilindrata ? { cilindrata } : {}),
      anno: year,
      ...(model.valore_b !== null && model.valore_b !== undefined ? { valore: model.valore_b } : {}),
      ...(colore ? { colore } : {}),
      furto,
      // Plates are trimmed (spec 001 §5) and stored in capitals.
      targa: targa.trim().toUpperCase(),
      ...(tipologiaTarga ? { tipologia_targa: tipologiaTarga } : {}),
      tipologia_ania: tipologiaAnia,
      ...(showQuintali && quintali.trim() !== '' && Number.isFinite(Number(quintali.replace(',', '.'))) ? { quintali: Number(quintali.replace(',', '.')) } : {}),
    });
  };

  // Enter in a field adds the vehicle, as a form would.
  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLInputElement;
    if (e.key !== 'Enter' || target.tagName !== 'INPUT') return;
    e.preventDefault();
    if (target.type !== 'search' && target.type !== 'radio') add();
  };

  const invalid = (name: keyof Errors) => ({
    isInvalid: Boolean(errors[name]),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${uid}-${name}-error` : undefined,
  });
  const feedback = (name: keyof Errors) =>
    errors[name] ? (
      <Form.Control.Feedback type="invalid" id={`${uid}-${name}-error`} className="d-block">
        {errors[name]}
      </Form.Control.Feedback>
    ) : null;

  return (
    <Modal show={show} onHide={onCancel} size="lg" aria-labelledby={`${uid}-title`}>
      <Modal.Header closeButton closeLabel="Chiudi">
        <Modal.Title id={`${uid}-title`} as="h2" className="h5">
          {t.veicoli.titoloDialogo}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body onKeyDown={onKeyDown}>
        {loadError && (
          <Notice variant="danger" role="alert">
            {loadError}
          </Notice>
        )}
        <div className="row g-3">
          <Form.Group className="col-md-6" controlId={`${uid}-marca`}>
            <Form.Label>{t.veicoli.marca}</Form.Label>
            <Form.Select
              value={marca}
              onChange={(e) => {
                setMarca(e.target.value);
                setModel(undefined);
                setErrors((x) => ({ ...x, marca: undefined }));
              }}
              {...invalid('marca')}
            >
              <option value="">{t.veicoli.sceltaMarca}</option>
              {marche.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Form.Select>
            {feedback('marca')}
          </Form.Group>
          <Form.Group className="col-md-6" controlId={`${uid}-cerca`}>
            <Form.Label>{t.veicoli.cerca}</Form.Label>
            <Form.Control type="search" value={search} disabled={!marca} autoComplete="off" onChange={(e) => setSearch(e.target.value)} />
          </Form.Group>
        </div>
        {marca && (
          <fieldset className="mt-3" aria-describedby={errors.modello ? `${uid}-modello-error` : undefined}>
            <legend className="fs-6 fw-semibold mb-2">
              {t.veicoli.risultati} {searching && <Spinner label={msg.loading} />}
            </legend>
            <div className="border rounded p-2 overflow-auto" style={{ maxHeight: 240 }}>
              {!searching && models.length === 0 && <div className="text-body-secondary small">{t.veicoli.nessunModello}</div>}
              {models.map((m) => (
                <Form.Check
                  key={m.id}
                  type="radio"
                  id={`${uid}-model-${m.id}`}
                  name={`${uid}-model`}
                  label={describe(m)}
                  checked={model?.id === m.id}
                  onChange={() => choose(m)}
                />
              ))}
            </div>
            {feedback('modello')}
          </fieldset>
        )}
        {model && (
          <div className="row g-3 mt-1">
            <Form.Group className="col-md-4" controlId={`${uid}-anno`}>
              <Form.Label>{label('anno', 'Anno')}</Form.Label>
              <Form.Control inputMode="numeric" maxLength={4} value={anno} onChange={(e) => setAnno(e.target.value.replace(/\D/g, ''))} {...invalid('anno')} />
              {feedback('anno')}
            </Form.Group>
            <Form.Group className="col-md-4" controlId={`${uid}-targa`}>
              <Form.Label>{label('targa', 'Targa')}</Form.Label>
              <Form.Control
                className="text-uppercase"
                maxLength={Number(fields.targa?.maxLength ?? 12)}
                value={targa}
                autoComplete="off"
                onChange={(e) => setTarga(e.target.value)}
                {...invalid('targa')}
              />
              {feedback('targa')}
            </Form.Group>
            <Form.Group className="col-md-4" controlId={`${uid}-tipologia-targa`}>
              <Form.Label>{label('tipologia_targa', 'Tipologia Targa')}</Form.Label>
              <Form.Select value={tipologiaTarga} onChange={(e) => setTipologiaTarga(e.target.value)}>
                <option value="">Seleziona…</option>
                {options(fields.tipologia_targa).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group className="col-md-6" controlId={`${uid}-tipologia-ania`}>
              <Form.Label>{label('tipologia_ania', 'Tipologia Veicolo')}</Form.Label>
              <Form.Select value={tipologiaAnia} onChange={(e) => setTipologiaAnia(e.target.value)} {...invalid('tipologia_ania')}>
                <option value="">Seleziona…</option>
                {options(fields.tipologia_ania).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Form.Select>
              {feedback('tipologia_ania')}
            </Form.Group>
            {showQuintali && (
              <Form.Group className="col-md-6" controlId={`${uid}-quintali`}>
                <Form.Label>{label('quintali', 'Quintali')}</Form.Label>
                <Form.Control inputMode="decimal" value={quintali} onChange={(e) => setQuintali(e.target.value)} />
              </Form.Group>
            )}
            <div className="col-md-6 d-flex align-items-end">
              <Form.Check type="switch" id={`${uid}-furto`} label={label('furto', 'Furto')} checked={furto} onChange={(e) => setFurto(e.target.checked)} />
            </div>
          </div>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel}>
          Annulla
        </Button>
        <Button variant="primary" onClick={add}>
          {t.veicoli.aggiungiConferma}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
