// Headless controller of the fast-quotation stepper: steps, request, coverages, calls (quotation, update, proposal) and busy guard.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import { useRoute } from '../../api/hooks.ts';
import { ApiError, callRoute } from '../../api/dataProvider.ts';
import { RCA_ROUTES } from './routes.ts';
import type { CoverageQuote, SimulationResponse } from '../../../shared/rca/simulazione.ts';
import { useNotify } from '../../lib/notify.tsx';
import { formValidator } from '../../renderer/validator.ts';
import type { RJSFSchema } from '@rjsf/utils';
import type { ResourceDef } from '../../types.ts';
import { deseleziona, seleziona, verifica, type CoverageSel } from '../../../shared/rca/garanzie.ts';
import { formatTarga, padIstat, richiestaVuota, tipiIndirizzo, verificaRichiesta } from '../../../shared/rca/richiesta.ts';
import { personaPulita, propertyPath, type Richiesta } from './forms.ts';
import { TEXTS } from './texts.ts';

export type { CoverageQuote };
export type Simulation = SimulationResponse;

interface Stored {
  id: number;
  cliente_id: number | null;
  cliente_label: string | null;
  quotation_request: Richiesta;
  quotation_response: Simulation | null;
  proposal: { proposalNumber: string } | null;
}

export interface ServerError {
  message: string;
  details: string[];
}

export const STEPS = ['Seleziona Cliente', 'Quotazione Veloce', 'Garanzie', 'Conferma'] as const;

/** The request as sent: person fields of the other kind dropped, plate formatted, municipality code padded. */
export function toSend(r: Richiesta): Richiesta {
  return {
    ...r,
    fastFlowData: { ...r.fastFlowData, plate: formatTarga(r.fastFlowData.plate), personData: personaPulita(r.fastFlowData.personData) },
    addresses: r.addresses.map((a) => ({ ...a, ...(a.cityIstat !== undefined ? { cityIstat: padIstat(a.cityIstat) } : {}) })),
    coverages: r.coverages.filter((c) => c.selected !== false),
  };
}

/** Every problem of steps 2 and 3 before anything is sent: the definition's schema and the shared rules. */
export function requestErrors(requestSchema: RJSFSchema, r: Richiesta): Record<string, string[]> {
  const sent = toSend(r);
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => {
    const list = (errors[path] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const { errors: schemaErrors } = formValidator.validateFormData(sent, requestSchema);
  for (const e of schemaErrors) {
    // The if/then/else summary repeats what the required fields already say.
    if (['if', 'oneOf', 'anyOf'].includes(e.name ?? '')) continue;
    add(propertyPath(e.property), e.message ?? 'Valore non valido');
  }
  for (const [path, messages] of Object.entries(verificaRichiesta(sent))) for (const m of messages) add(path, m);
  return errors;
}

function flatten(errors: Record<string, string[]> | undefined): string[] {
  return Object.values(errors ?? {}).flat();
}

export function useQuotazioneRca(def: ResourceDef, id: string | undefined) {
  const notify = useNotify();
  const navigate = useNavigate();
  const requestSchema = def.schema.properties!.quotation_request! as RJSFSchema;
  const [step, setStep] = useState(1);
  const [modo, setModo] = useState<'esistente' | 'nuovo'>('esistente');
  const [clienteId, setClienteId] = useState<number | undefined>();
  const [clienteLabel, setClienteLabel] = useState<string>('');
  const [richiesta, setRichiesta] = useState<Richiesta>(() => richiestaVuota() as Richiesta);
  const [formKey, setFormKey] = useState(0);
  const [response, setResponse] = useState<Simulation | null>(null);
  const [recordId, setRecordId] = useState<number | undefined>(id ? Number(id) : undefined);
  /** Saves made on this screen: the history below reads again after each. */
  const [salvataggi, setSalvataggi] = useState(0);
  const [proposal, setProposal] = useState<{ proposalNumber: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [serverError, setServerError] = useState<ServerError | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  const loaded = useRoute<{ data: Stored }>(RCA_ROUTES.quotazione, id ? { id } : null, { revalidateOnReconnect: false }, { label: 'Quotazione' });
  const initialised = useRef(false);
  useEffect(() => {
    const stored = loaded.data?.data;
    if (!stored || initialised.current) return;
    initialised.current = true;
    setRichiesta(stored.quotation_request);
    setClienteId(stored.cliente_id ?? undefined);
    setClienteLabel(stored.cliente_label ?? '');
    setModo(stored.cliente_id ? 'esistente' : 'nuovo');
    setResponse(stored.quotation_response);
    setProposal(stored.proposal);
    setRecordId(stored.id);
    setFormKey((k) => k + 1);
    setStep(stored.quotation_response ? 3 : 2);
  }, [loaded.data]);

  /** One operation at a time: a click while another runs is refused with the product's words. */
  const exclusive = useCallback(
    async (run: () => Promise<void>) => {
      if (busyRef.current) {
        notify('warning', TEXTS.busy);
        return;
      }
      busyRef.current = true;
      setBusy(true);
      try {
        await run();
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [notify],
  );

  const goTo = useCallback((next: number) => setStep(Math.min(4, Math.max(1, next))), []);

  const nuovoCliente = useCallback(() => {
    setModo('nuovo');
    setClienteId(undefined);
    setClienteLabel('');
    setRichiesta(richiestaVuota() as Richiesta);
    setResponse(null);
    setErrors({});
    setServerError(null);
    setFormKey((k) => k + 1);
    setStep(2);
  }, []);

  const clienteEsistente = useCallback(() => {
    setModo('esistente');
    setStep(1);
  }, []);

  const caricaCliente = useCallback(
    (cliente: { cliente_id: number; nome?: unknown; cognome?: unknown }, veicoloId: string | undefined) =>
      exclusive(async () => {
        try {
          const body = await callRoute<{ data: { quotation_request: Richiesta } }>('POST', RCA_ROUTES.clienteVeicolo, {}, {
            body: { cliente_id: cliente.cliente_id, ...(veicoloId ? { veicolo_id: veicoloId } : {}) },
          });
          setClienteId(cliente.cliente_id);
          setClienteLabel([cliente.cognome, cliente.nome].filter(Boolean).join(' '));
          setRichiesta(body.data.quotation_request);
          setResponse(null);
          setErrors({});
          setServerError(null);
          setFormKey((k) => k + 1);
          setStep(2);
        } catch (err) {
          notify('danger', err instanceof ApiError && err.status !== 0 ? `${TEXTS.clienteLoadError}: ${err.message}` : TEXTS.clienteLoadError);
        }
      }),
    [exclusive, notify],
  );

  const patch = useCallback((change: (r: Richiesta) => Richiesta) => setRichiesta((r) => change(r)), []);
  const setDati = useCallback((data: Record<string, unknown>) => patch((r) => ({ ...r, fastFlowData: { ...r.fastFlowData, ...data } })), [patch]);
  const setPersona = useCallback(
    (data: Record<string, unknown>) =>
      patch((r) => {
        // A switch of person kind moves the address to a type the new kind allows (spec 002 §4.1).
        const allowed = tipiIndirizzo(data.gender);
        const addresses = r.addresses.map((a) => (allowed.includes(String(a.addressType)) || a.addressType === 'SiviSivo' ? a : { ...a, addressType: allowed[0] }));
        return { ...r, addresses, fastFlowData: { ...r.fastFlowData, personData: data } };
      }),
    [patch],
  );
  const setIndirizzo = useCallback((data: Record<string, unknown>) => patch((r) => ({ ...r, addresses: [data, ...r.addresses.slice(1)] })), [patch]);
  const setContatto = useCallback((data: Record<string, unknown>) => patch((r) => ({ ...r, contacts: [data, ...r.contacts.slice(1)] })), [patch]);
  const category = String(richiesta.fastFlowData.vehicleCategory ?? 'Auto');
  const selectCoverage = useCallback((code: string) => patch((r) => ({ ...r, coverages: seleziona(r.coverages as CoverageSel[], code, category) as Richiesta['coverages'] })), [patch, category]);
  const deselectCoverage = useCallback((code: string) => patch((r) => ({ ...r, coverages: deseleziona(r.coverages as CoverageSel[], code) as Richiesta['coverages'] })), [patch]);
  const setCoverageValue = useCallback(
    (code: string, value: number) => patch((r) => ({ ...r, coverages: r.coverages.map((c) => (c.code === code ? { ...c, value } : c)) })),
    [patch],
  );
  const setConvention = useCallback((convention: string) => setDati({ convention }), [setDati]);

  const violazioni = useMemo(() => verifica(richiesta.coverages as CoverageSel[], category), [richiesta.coverages, category]);

  const validaDati = useCallback((): boolean => {
    const found = requestErrors(requestSchema, richiesta);
    delete found.coverages;
    setErrors(found);
    return Object.keys(found).length === 0;
  }, [requestSchema, richiesta]);

  const avanti = useCallback(() => {
    if (step === 1 && modo === 'esistente' && !clienteId) {
      notify('warning', TEXTS.scegliCliente);
      return;
    }
    if (step === 2 && !validaDati()) {
      notify('warning', TEXTS.correggi);
      return;
    }
    if (step === 3 && response?.simulation.quotation.quotationStatus !== 'Quoted') {
      notify('warning', TEXTS.primaPreventivo);
      return;
    }
    goTo(step + 1);
  }, [step, modo, clienteId, validaDati, response, goTo, notify]);

  const indietro = useCallback(() => goTo(step - 1), [step, goTo]);

  const preventivo = useCallback(
    () =>
      exclusive(async () => {
        setServerError(null);
        if (!validaDati()) {
          setStep(2);
          notify('warning', TEXTS.correggi);
          return;
        }
        if (violazioni.length) {
          setServerError({ message: violazioni[0]!.message, details: violazioni.map((v) => v.message) });
          return;
        }
        const updating = recordId !== undefined;
        try {
          const body = updating
            ? await callRoute<{ message: string; data: Stored }>('PUT', RCA_ROUTES.quotazione, { id: recordId }, { body: toSend(richiesta), query: { cliente_id: clienteId } })
            : await callRoute<{ message: string; data: Stored }>('POST', RCA_ROUTES.nuovaQuotazione, {}, { body: toSend(richiesta), query: { cliente_id: clienteId } });
          setResponse(body.data.quotation_response);
          setSalvataggi((n) => n + 1);
          setErrors({});
          const status = body.data.quotation_response?.simulation.quotation.quotationStatus;
          notify(status === 'Quoted' ? 'success' : 'warning', body.message);
          if (!updating) {
            setRecordId(body.data.id);
            // The address bar follows: a reload reopens this quotation.
            navigate(generatePath(def.resource.routes!.edit!.path, { id: String(body.data.id) }), { replace: true });
          }
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const fieldErrors = err.errors ?? {};
          setErrors(fieldErrors);
          const details = flatten(fieldErrors);
          const message = updating ? `${TEXTS.updateError} ${err.message}` : err.message;
          setServerError({ message, details: details.length ? details : [err.message] });
          if (Object.keys(fieldErrors).some((k) => k.startsWith('fastFlowData') || k.startsWith('addresses') || k.startsWith('contacts'))) setStep(2);
        }
      }),
    [exclusive, validaDati, violazioni, recordId, richiesta, clienteId, notify, navigate, def],
  );

  const conferma = useCallback(
    (sendMailToClient: boolean) =>
      exclusive(async () => {
        const quotationNumber = response?.simulation.commonData.simulationNumber;
        if (!quotationNumber) return;
        setServerError(null);
        try {
          const body = await callRoute<{ message: string; data: { proposalNumber: string; cliente_id: number } }>('POST', RCA_ROUTES.proposta, {}, {
            body: { proposalData: { quotationNumber, sendMailToClient } },
          });
          setProposal(body.data);
          setClienteId(body.data.cliente_id);
          notify('success', body.message);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const details = flatten(err.errors);
          setServerError({ message: TEXTS.proposalError, details: [err.message, ...details] });
          notify('danger', TEXTS.proposalError);
        }
      }),
    [exclusive, response, notify],
  );

  return {
    step, goTo, avanti, indietro, modo, nuovoCliente, clienteEsistente, caricaCliente, clienteId, clienteLabel,
    richiesta, formKey, setDati, setPersona, setIndirizzo, setContatto, category,
    selectCoverage, deselectCoverage, setCoverageValue, setConvention, violazioni,
    response, preventivo, conferma, proposal, errors, serverError, busy, recordId, salvataggi,
    loading: Boolean(id) && !loaded.data && !loaded.error, loadError: loaded.error as Error | undefined,
  };
}

export type QuotazioneRcaController = ReturnType<typeof useQuotazioneRca>;
