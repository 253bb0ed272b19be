// Beside every change of the studio, from the draft (debounced): the workflow's lint in Italian with the machine drawn as
// it would be, and the live preview of the touched resources' form and list with real records of the analyst's own
// scope (read through the data layer, as the application reads them). Read-only: nothing is saved.
import { createContext, useContext, useMemo } from 'react';
import Table from 'react-bootstrap/Table';
import { useDebounce } from 'use-debounce';
import { useGetList, useGetOne, usePostedRoute } from '../../api/hooks.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { SchemaForm } from '../../renderer/SchemaForm.tsx';
import { displayValue } from '../../renderer/formBody.ts';
import type { RecordData, ResourceDef } from '../../types.ts';
import { ordineAnteprima, risorseToccate } from '../../../shared/definitions/studio/anteprima.ts';
import { STUDIO_ROUTES } from './routes.ts';
import { lintFlusso } from '../../../shared/definitions/studio/flussi.ts';
import { Diagramma } from './Diagramma.tsx';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files

/** The set in use and what the code implements for each machine (GET /api/definizioni). */
export interface StudioSet {
  files: Record<string, Json>;
  implementati?: { azioni: string[]; guardie: Record<string, string[]> };
}

export const StudioSetContext = createContext<StudioSet | undefined>(undefined);

/** Waited for after the last keystroke before the draft is linted and previewed. */
export const BOZZA_MS = 400;

/** The files a draft changes (or the message saying what is wrong with it), once the analyst pauses typing. */
export function useBozza(draft: RecordData, files: (data: RecordData) => Record<string, unknown> | string) {
  const [settled] = useDebounce(draft, BOZZA_MS);
  // `files` is rebuilt on each render of the studio; the draft alone decides the result.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => files(settled), [settled]);
}

/** The workflow lint of a draft, as the analyst edits, and the machine it would be. */
export function ControlloFlusso({ changed }: { changed: Record<string, unknown> | string }) {
  const set = useContext(StudioSetContext);
  const machines = typeof changed === 'string' ? [] : Object.entries(changed).filter(([f, v]) => f.startsWith('workflows/') && v);
  if (typeof changed === 'string') return <Notice variant="warning" role="status">{changed}</Notice>;
  return (
    <>
      {machines.map(([file, machine]) => {
        const name = file.slice('workflows/'.length, -'.json'.length);
        const guards = set?.implementati?.guardie[name];
        const problems = lintFlusso(machine as Json, guards && set?.implementati ? { guards, actions: set.implementati.azioni } : undefined);
        return (
          <div key={file} className="mt-3" data-testid="studio-lint-flusso">
            <h3 className="h6">Controllo del flusso</h3>
            <div role="status" aria-live="polite">
              {problems.length === 0
                ? <p className="text-success mb-2">Nessun errore nel flusso.</p>
                : <ul className="text-danger mb-2">{problems.map((p) => <li key={p}>{p}</li>)}</ul>}
            </div>
            <h3 className="h6">Il flusso con la modifica</h3>
            <Diagramma machine={machine as Json} titolo={`${name} (bozza)`} />
          </div>
        );
      })}
    </>
  );
}

/** The preview of every resource the draft touches, under the editor: the server serves them as it will once applied. */
export function AnteprimaRisorse({ changed }: { changed: Record<string, unknown> | string }) {
  const toccate = typeof changed === 'string' ? [] : risorseToccate(changed);
  const anteprima = usePostedRoute<{ risorse: ResourceDef[]; errori: Array<{ file: string; messaggio: string }> }>(
    STUDIO_ROUTES.anteprima, toccate.length ? { files: changed } : undefined);
  if (!toccate.length) return null;
  if (anteprima.error) return <Notice variant="danger" role="alert">{anteprima.error instanceof Error ? anteprima.error.message : 'Anteprima non disponibile.'}</Notice>;
  if (!anteprima.data) return <Spinner label="Preparazione dell'anteprima…" />;
  const [errore] = anteprima.data.errori;
  if (errore) return <Notice variant="warning" role="status">{`Anteprima non disponibile finché la bozza ha un errore (${errore.file}): ${errore.messaggio}`}</Notice>;
  return <>{anteprima.data.risorse.map((bozza) => <AnteprimaRisorsa key={bozza.name} bozza={bozza} />)}</>;
}

const PRIME_RIGHE = 5;

function AnteprimaRisorsa({ bozza }: { bozza: ResourceDef }) {
  const { definitions } = useDefinitions();
  // The records are read as the application reads them now; the draft's screens show them.
  const def = findResource(definitions, bozza.name);
  const sort = ordineAnteprima(bozza.list.defaultSort, (def?.schema.properties ?? {}) as Record<string, Json>);
  const page = useGetList(def?.resource, def?.can.list ? { page: 1, perPage: PRIME_RIGHE, ...(sort ? { sort } : {}) } : null);
  const firstId = page.data?.data[0]?.id as string | number | undefined;
  const record = useGetOne(def?.can.read ? def.resource : undefined, firstId);
  const titolo = bozza.resource.title;
  const props = (bozza.schema.properties ?? {}) as Record<string, Json>;
  const columns = bozza.list.columns.filter((c) => !c.hide);
  const cell = (row: RecordData, field: string) => {
    const label = row[`${field}__label`];
    return label !== undefined && label !== null ? String(label) : displayValue(props[field], row[field]);
  };
  const titleId = `studio-anteprima-${bozza.name}`;
  return (
    <section aria-labelledby={titleId} className="mb-4 border rounded p-3 bg-body-tertiary" data-testid="studio-anteprima">
      <h2 id={titleId} className="h5">{`Anteprima dal vivo: ${titolo}`}</h2>
      <p className="small text-body-secondary">Il modulo e la lista come saranno dopo la modifica, con i record che vedi tu. Sola lettura: nulla viene salvato.</p>
      {!def && <Notice variant="info" role="status">Nessun record da mostrare: la risorsa non esiste ancora.</Notice>}
      {page.error && <Notice variant="danger" role="alert">{page.error instanceof Error ? page.error.message : 'Impossibile leggere i record.'}</Notice>}
      <h3 className="h6">Lista (prime righe)</h3>
      {def && !page.data && !page.error ? <Spinner label="Caricamento dei record…" /> : (
        // Scrolls sideways when the columns are many: focusable, so the keyboard scrolls it too.
        <div className="overflow-auto mb-3" tabIndex={0} role="region" aria-label={`Lista di ${titolo} in anteprima (scorrevole)`}>
        <Table size="sm" className="small mb-0" data-testid="studio-anteprima-lista">
          <caption className="visually-hidden">{`Prime righe della lista di ${titolo} con le colonne della modifica`}</caption>
          <thead><tr>{columns.map((c) => <th key={c.field} scope="col">{c.headerName ?? props[c.field]?.title ?? c.field}</th>)}</tr></thead>
          <tbody>
            {(page.data?.data ?? []).map((row) => <tr key={String(row.id)}>{columns.map((c) => <td key={c.field}>{cell(row, c.field)}</td>)}</tr>)}
            {page.data?.data.length === 0 && <tr><td colSpan={Math.max(1, columns.length)}>Nessun record.</td></tr>}
          </tbody>
        </Table>
        </div>
      )}
      <h3 className="h6">{firstId !== undefined ? `Modulo (record ${String(firstId)})` : 'Modulo'}</h3>
      <div data-testid="studio-anteprima-modulo">
        {firstId !== undefined && !record.data && !record.error ? <Spinner label="Caricamento del record…" /> : (
          <SchemaForm key={String(firstId ?? 'nuovo')} id={`studio-anteprima-modulo-${bozza.name}`} schema={bozza.schema} formUi={bozza.form}
            idPrefix={`anteprima_${bozza.name}`} initialData={record.data ?? {}} labels={record.data} recordId={firstId !== undefined ? String(firstId) : undefined} resources={definitions?.resources} disabled />
        )}
      </div>
    </section>
  );
}
