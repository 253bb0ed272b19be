// Headless controller of the quotation screen over the generic form controller: its two forms, calculation and workflow actions.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { isApiError, calcola, callRoute, getWorkflow, transition } from '../../api/dataProvider.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { useNotify } from '../../lib/notify.tsx';
import { msg } from '../../messages.ts';
import { sameValue } from '../../renderer/formBody.ts';
import { prepareForm } from '../../renderer/formSchema.ts';
import { useResourceForm } from '../../renderer/useResourceForm.ts';
import type { FormUi, JsonSchema, RecordData, ResourceDef } from '../../types.ts';
import { sessionUser, workflowOf } from './useRecordWorkflow.ts';
import { t } from './texts.ts';
import type { AvailableEvent, ServerEvents } from './useRecordWorkflow.ts';

/** Fields edited in the preview drawer rather than in 'Raccolta dati' ("ui:drawer" of the form may name others). */
export const DRAWER_FIELDS = ['competenze', 'premio_forzato', 'note'];

export function drawerFields(form: FormUi): string[] {
  const declared = form['ui:drawer'];
  return Array.isArray(declared) ? (declared as string[]) : DRAWER_FIELDS;
}
const MODERNI = 'veicoli_moderni';
const MAIN_FORM_ID = 'form-quotazione';
const QUOTIDIANO = 'quotidiano';

/** The schema restricted to some properties; `keepRules` keeps the root if/then/else (which name those properties). */
export function subsetSchema(schema: JsonSchema, names: string[], keepRules: boolean): JsonSchema {
  const keep = new Set(names);
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => keep.has(name)));
  const required = (schema.required ?? []).filter((name) => keep.has(name));
  if (keepRules) return { ...schema, properties, required };
  return { type: 'object', additionalProperties: false, properties, required };
}

/** The fields 'Raccolta dati' shows: every field of the layout except the drawer's. */
export function mainFieldNames(form: FormUi): string[] {
  const layout = form['ui:layout'] ?? [];
  const drawer = drawerFields(form);
  return layout.flatMap((section) => section.fields).filter((f) => !drawer.includes(f));
}

/** Daily-use vehicles follow the declared count: blank rows added or removed at the end (spec 001 §5). */
export function resizeModerni(rows: unknown, count: unknown): RecordData[] | undefined {
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1 || n > 10) return undefined;
  const list = Array.isArray(rows) ? (rows as RecordData[]) : [];
  if (list.length === n) return undefined;
  return list.length > n ? list.slice(0, n) : [...list, ...Array.from({ length: n - list.length }, () => ({}))];
}

/**
 * A refused calculation's errors split by where they show: under a field of the screen's forms (fail() puts them there),
 * or in the premium panel, for those no field shows: fields not on the forms, and rows of a field drawn by a widget of
 * its own (the historic vehicles' table), named by row and column.
 */
export function calcErrorsForPanel(errors: Record<string, string[]>, schema: JsonSchema, form: FormUi, fields: string[]): string[] {
  const onForm = new Set(fields);
  return Object.entries(errors).flatMap(([path, messages]) => {
    const [top, row, column] = path.split('.');
    const ownWidget = Boolean((form[top!] as Record<string, unknown> | undefined)?.['ui:widget']);
    if (onForm.has(top!) && (row === undefined || !ownWidget)) return [];
    const prop = schema.properties?.[top!] as JsonSchema | undefined;
    const item = (prop?.items ?? {}) as JsonSchema;
    const where = [
      prop?.title ?? top,
      row !== undefined && /^\d+$/.test(row) ? String(Number(row) + 1) : row,
    ].filter(Boolean).join(' ');
    const label = column ? `${where}, ${(item.properties?.[column]?.title as string | undefined) ?? column}` : where;
    return messages.map((m) => `${label}: ${m}`);
  });
}

interface WorkflowAnswer {
  data: ServerEvents & { storico: HistoryRow[] };
}

export interface HistoryRow {
  id: number;
  event: string;
  from_status: number | null;
  to_status: number;
  user_name: string | null;
  note: string | null;
  at: string;
}

/** 'Raccolta dati' and the drawer's forms, as rjsf renders them (WithFormValidators loads their validators first). */
export function quotazioneForms(schema: JsonSchema, form: FormUi) {
  const mainSchema = subsetSchema(schema, mainFieldNames(form), true);
  const drawerSchema = subsetSchema(schema, drawerFields(form), false);
  return { mainSchema, drawerSchema, main: prepareForm(mainSchema, form), drawer: prepareForm(drawerSchema, {}) };
}

export function useQuotazione(def: ResourceDef, id: string | undefined) {
  const { resource, schema, form: formUi } = def;
  const notify = useNotify();
  const workflow = workflowOf(def.workflow!);

  const drawerNames = useMemo(() => drawerFields(formUi), [formUi]);
  const { mainSchema, drawerSchema, main, drawer } = useMemo(() => quotazioneForms(schema, formUi), [schema, formUi]);
  const sections = useMemo(() => ({ main, drawer }), [main, drawer]);

  const editableFor = useCallback(
    (rec: RecordData) => (id ? def.can.update && workflow.can(Number(rec[workflow.statusField]), sessionUser(), rec, { type: 'SALVA' }) : def.can.create),
    [id, def.can.update, def.can.create, workflow],
  );
  /** A record the user may edit shows as many daily-use vehicle rows as it declares. */
  const arrange = useCallback(
    (section: string, data: RecordData, rec: RecordData) => {
      const rows = section === 'main' && editableFor(rec) ? resizeModerni(data[MODERNI], data[QUOTIDIANO]) : undefined;
      return rows ? { ...data, [MODERNI]: rows } : data;
    },
    [editableFor],
  );
  const form = useResourceForm(def, id, {
    sections,
    arrange,
    editable: editableFor,
    savedMessage: 'Quotazione salvata con successo',
    // The drawer shows its fields' warnings beside them.
    inlineWarnings: drawerNames,
    reshowSaved: true,
  });
  const { record, formKey, saveThen, showRecord, reload, fail, clearWarnings, values } = form;
  const mainSection = form.sections.main;
  const drawerSection = form.sections.drawer;
  const { onChange: mainChanged, formRef: mainRef } = mainSection;
  const drawerChanged = drawerSection.onChange;

  const [busy, setBusy] = useState<string | null>(null);
  const [calcErrors, setCalcErrors] = useState<string[]>([]);
  const [history, setHistory] = useState<HistoryRow[]>();
  const [serverEvents, setServerEvents] = useState<ServerEvents>();
  // The drawer's values as typed (the preview follows them), until the forms show another record.
  const [typedDrawer, setTypedDrawer] = useState<{ formKey: number; data: RecordData }>();
  const drawerLive = typedDrawer?.formKey === formKey ? typedDrawer.data : drawerSection.initial;

  const loadHistory = useCallback(async () => {
    if (!id) return;
    try {
      const answer = await getWorkflow<WorkflowAnswer>(resource, id);
      setHistory(answer.data.storico);
      setServerEvents({ version: answer.data.version, eventi: answer.data.eventi, avvisi: answer.data.avvisi });
    } catch (err) {
      // A record that cannot be read says so once, where it is loaded.
      if (isApiError(err, 'NOT_FOUND')) return;
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    }
  }, [id, resource, notify]);

  // Each stored version shown gets the server's events for it (a save or a calculation can change what is allowed).
  const version = record?.version;
  useEffect(() => {
    void loadHistory();
    // Only when the record or its version changes: later reloads are explicit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, version]);

  const onMainChange = useCallback(
    (data: RecordData) => {
      const previous = values()[QUOTIDIANO];
      mainChanged(data);
      if (!sameValue(data[QUOTIDIANO], previous) && record && editableFor(record)) {
        const rows = resizeModerni(data[MODERNI], data[QUOTIDIANO]);
        if (rows) mainRef.current?.setFieldValue(MODERNI, rows as never);
      }
    },
    [values, mainChanged, mainRef, record, editableFor],
  );

  const onDrawerChange = useCallback(
    (data: RecordData) => {
      setTypedDrawer({ formKey, data });
      drawerChanged(data);
    },
    [formKey, drawerChanged],
  );

  const calculate = useCallback(() => {
    const run = async () => {
      setBusy('calcolo');
      try {
        const answer = await calcola(resource, { id: Number(id) });
        setCalcErrors([]);
        clearWarnings();
        notify('success', answer.message || 'Calcolo eseguito.');
        if (answer.data?.model) showRecord(answer.data.model);
        else await reload();
        void loadHistory();
      } catch (err) {
        // A 422's fields are marked where they are (fail); the panel keeps only what no field shows.
        setCalcErrors(isApiError(err, 'VALIDATION') ? calcErrorsForPanel(err.errors, schema, formUi, [...main.fields, ...drawer.fields]) : []);
        fail(err);
      } finally {
        setBusy(null);
      }
    };
    // The calculation's outcome is the one notice: a save before it says nothing of its own.
    saveThen({ run: () => void run(), cancel: () => undefined, quiet: true });
  }, [saveThen, resource, id, notify, clearWarnings, showRecord, reload, loadHistory, fail, schema, formUi, main, drawer]);

  /** Refreshes one historic vehicle's registry data on the server (saving the form first), then shows the stored record. */
  const refreshRegistry = useCallback(
    (vehicleId: string, targa: string, tipologia: string) => {
      const run = async () => {
        setBusy('registri');
        try {
          const answer = await callRoute<{ result: number; Error?: Array<{ descError: string }>; model: RecordData }>('POST', QUOTAZIONE_ROUTES.datiAnia, { veicolo: vehicleId, targa: targa.trim(), tipologia });
          showRecord(answer.model);
          if (answer.result === 2) notify('danger', `${t.veicoli.erroreVerti}: ${answer.Error?.[0]?.descError ?? ''}`);
          else notify('success', t.veicoli.datiAggiornati);
        } catch (err) {
          fail(err);
        } finally {
          setBusy(null);
        }
      };
      saveThen({ run: () => void run(), cancel: () => undefined, quiet: true });
    },
    [saveThen, showRecord, notify, fail],
  );

  /** Sends a workflow event through its route; a note goes in the field the event names. Returns field errors of the note. */
  const send = useCallback(
    (event: AvailableEvent, options: { nota?: string; stato?: number; successMessage?: string } = {}): Promise<string | undefined> =>
      new Promise((resolve) => {
        const run = async () => {
          setBusy(event.type);
          const noteField = event.meta.noteField ?? 'nota';
          try {
            const answer =
              event.meta.kind === 'manual'
                ? await transition(resource, event.meta.route!, undefined, { id: Number(id), [workflow.statusField]: options.stato })
                : await transition(resource, event.meta.route!, id!, options.nota?.trim() ? { [noteField]: options.nota.trim() } : {});
            notify('success', options.successMessage || answer.message || event.meta.label);
            resolve(undefined);
          } catch (err) {
            const noteError = isApiError(err, 'VALIDATION') ? (err.errors[noteField] ?? err.errors.nota)?.[0] : undefined;
            if (noteError) resolve(noteError);
            else {
              fail(err);
              resolve(undefined);
            }
          } finally {
            setBusy(null);
            // The status may have moved either way (also when another user got there first).
            await reload();
            void loadHistory();
          }
        };
        saveThen({ run: () => void run(), cancel: () => resolve(undefined), quiet: true });
      }),
    [saveThen, resource, id, workflow, notify, fail, reload, loadHistory],
  );

  return {
    mode: form.mode,
    mainFormId: MAIN_FORM_ID,
    workflow,
    record,
    loadError: form.loadError,
    loading: form.loading,
    formKey,
    mainSchema,
    drawerSchema,
    drawerNames,
    initialMain: mainSection.initial,
    initialDrawer: drawerSection.initial,
    mainRef,
    drawerRef: drawerSection.formRef,
    mainErrors: mainSection.extraErrors,
    drawerErrors: drawerSection.extraErrors,
    busy: form.saving ? 'save' : busy,
    dirty: form.dirty,
    dirtyRef: form.dirtyRef,
    conflict: form.conflict,
    saveWarnings: form.warnings,
    calcErrors,
    history,
    serverEvents,
    drawerLive,
    onMainChange,
    onDrawerChange,
    onMainInvalid: form.onInvalid,
    save: form.submit,
    calculate,
    send,
    reload,
    refreshRegistry,
    reloadHistory: () => void loadHistory(),
  };
}
