// Headless controller of the quotation screen: load, the two forms' data, save, calculation and workflow actions.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import type Form from '@rjsf/core';
import { getDefaultFormState } from '@rjsf/utils';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { isApiError, calcola, callRoute, create, getOne, getWorkflow, savedRecord, transition, update } from '../../api/dataProvider.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import type { Saved } from '../../api/dataProvider.ts';
import { useNotify } from '../../lib/notify.tsx';
import { msg } from '../../messages.ts';
import { changedFields, createBody, pickFields, sameValue, toErrorSchema, updateBody, withoutErrorsOf } from '../../renderer/formBody.ts';
import { DEFAULTS_BEHAVIOUR, prepareForm } from '../../renderer/formSchema.ts';
import { formValidator } from '../../renderer/validator.ts';
import type { FormUi, JsonSchema, RecordData, ResourceDef } from '../../types.ts';
import { sessionUser, workflowOf } from './useRecordWorkflow.ts';
import { t } from './texts.ts';
import type { AvailableEvent } from './useRecordWorkflow.ts';

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

function flatten(errors: Record<string, string[]>): string[] {
  return Object.values(errors).flat();
}

interface WorkflowAnswer {
  data: { storico: HistoryRow[] };
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

type SavedWithWarnings = Saved & { warnings?: Record<string, string[]> };

interface Pending {
  run: (saved: RecordData) => void;
  cancel: () => void;
}

/** 'Raccolta dati' and the drawer's forms, as rjsf renders them (WithFormValidators loads their validators first). */
export function quotazioneForms(schema: JsonSchema, form: FormUi) {
  const mainSchema = subsetSchema(schema, mainFieldNames(form), true);
  const drawerSchema = subsetSchema(schema, drawerFields(form), false);
  return { mainSchema, drawerSchema, main: prepareForm(mainSchema, form), drawer: prepareForm(drawerSchema, {}) };
}

export function useQuotazione(def: ResourceDef, id: string | undefined) {
  const { resource, schema, form } = def;
  const notify = useNotify();
  const navigate = useNavigate();
  const mode: 'new' | 'edit' = id ? 'edit' : 'new';
  const workflow = workflowOf(def.workflow!);

  const drawerNames = useMemo(() => drawerFields(form), [form]);
  const { mainSchema, drawerSchema, main, drawer } = useMemo(() => quotazioneForms(schema, form), [schema, form]);
  const fields = useMemo(() => [...main.fields, ...drawer.fields], [main, drawer]);

  const [record, setRecord] = useState<RecordData | undefined>(id ? undefined : {});
  const [loadError, setLoadError] = useState<string>();
  const [formKey, setFormKey] = useState(0);
  const [initialMain, setInitialMain] = useState<RecordData>({});
  const [initialDrawer, setInitialDrawer] = useState<RecordData>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [dirty, setDirtyState] = useState(false);
  const [mainErrors, setMainErrors] = useState<ErrorSchema>();
  const [drawerErrors, setDrawerErrors] = useState<ErrorSchema>();
  const [conflict, setConflict] = useState(false);
  const [saveWarnings, setSaveWarnings] = useState<Record<string, string[]>>({});
  const [calcErrors, setCalcErrors] = useState<string[]>([]);
  const [history, setHistory] = useState<HistoryRow[]>();
  const mainRef = useRef<Form>(null);
  const drawerRef = useRef<Form>(null);
  const mainData = useRef<RecordData>({});
  const drawerData = useRef<RecordData>({});
  const baseline = useRef<RecordData>({});
  const dirtyRef = useRef(false);
  // What waits for the form to be stored first (it had changes): run once saved, cancel when it is not.
  const afterSave = useRef<Pending | null>(null);
  const [drawerLive, setDrawerLive] = useState<RecordData>({});

  const editableFor = useCallback(
    (rec: RecordData) => (id ? def.can.update && workflow.can(Number(rec[workflow.statusField]), sessionUser(), rec, { type: 'SALVA' }) : def.can.create),
    [id, def.can.update, def.can.create, workflow],
  );

  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };
  const recomputeDirty = useCallback(() => {
    const merged = { ...mainData.current, ...drawerData.current };
    const isDirty = changedFields(merged, baseline.current, fields).length > 0;
    if (isDirty !== dirtyRef.current) setDirty(isDirty);
  }, [fields]);

  /** Puts a record in both forms by remounting them; it becomes the clean state. */
  const show = useCallback(
    (rec: RecordData) => {
      const defaults = (prepared: typeof main, data: RecordData) =>
        getDefaultFormState(formValidator, prepared.schema, pickFields(data, prepared.fields), prepared.schema as RJSFSchema, false, DEFAULTS_BEHAVIOUR) as RecordData;
      const m = defaults(main, rec);
      if (editableFor(rec)) {
        const rows = resizeModerni(m[MODERNI], m[QUOTIDIANO]);
        if (rows) m[MODERNI] = rows;
      }
      const d = defaults(drawer, rec);
      mainData.current = m;
      drawerData.current = d;
      baseline.current = { ...m, ...d };
      setInitialMain(m);
      setInitialDrawer(d);
      setDrawerLive(d);
      setFormKey((k) => k + 1);
      setDirty(false);
    },
    [main, drawer, editableFor],
  );

  const loadHistory = useCallback(async () => {
    if (!id) return;
    try {
      const answer = await getWorkflow<WorkflowAnswer>(resource, id);
      setHistory(answer.data.storico);
    } catch (err) {
      // A record that cannot be read says so once, where it is loaded.
      if (isApiError(err, 'NOT_FOUND')) return;
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    }
  }, [id, resource, notify]);

  const load = useCallback(async () => {
    if (!id) return;
    try {
      const rec = await getOne(resource, id);
      setRecord(rec);
      setConflict(false);
      show(rec);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : msg.genericError);
    }
  }, [id, resource, show]);

  // First load (and the new form's defaults).
  useEffect(() => {
    if (id) {
      void load();
      void loadHistory();
    } else {
      show({});
    }
    // Only when the record changes: later reloads are explicit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const onMainChange = useCallback(
    (data: RecordData) => {
      const previous = mainData.current;
      mainData.current = data;
      if (!sameValue(data[QUOTIDIANO], previous[QUOTIDIANO]) && record && editableFor(record)) {
        const rows = resizeModerni(data[MODERNI], data[QUOTIDIANO]);
        if (rows) mainRef.current?.setFieldValue(MODERNI, rows as never);
      }
      const touched = Object.keys(data).filter((f) => !sameValue(data[f], previous[f]));
      setMainErrors((errors) => withoutErrorsOf(errors, touched));
      recomputeDirty();
    },
    [record, editableFor, recomputeDirty],
  );

  const onDrawerChange = useCallback(
    (data: RecordData) => {
      const previous = drawerData.current;
      drawerData.current = data;
      setDrawerLive(data);
      const touched = Object.keys(data).filter((f) => !sameValue(data[f], previous[f]));
      setDrawerErrors((errors) => withoutErrorsOf(errors, touched));
      recomputeDirty();
    },
    [recomputeDirty],
  );

  /** Server errors land under their fields, in whichever form holds the field. */
  const showFieldErrors = useCallback((errors: Record<string, string[]>) => {
    const mine = (path: string) => drawerNames.includes(path.split('.')[0]);
    setMainErrors(toErrorSchema(Object.fromEntries(Object.entries(errors).filter(([k]) => !mine(k)))));
    setDrawerErrors(toErrorSchema(Object.fromEntries(Object.entries(errors).filter(([k]) => mine(k)))));
  }, [drawerNames]);

  const fail = useCallback(
    (err: unknown) => {
      if (isApiError(err, 'VALIDATION')) {
        showFieldErrors(err.errors);
        notify('danger', err.message);
      } else if (isApiError(err, 'STALE_VERSION') && err.body.current) {
        setConflict(true);
      } else {
        notify('danger', err instanceof Error ? err.message : msg.genericError);
      }
    },
    [notify, showFieldErrors],
  );

  /** Called by rjsf once 'Raccolta dati' is valid: stores both forms, then runs what was waiting for the save. */
  const save = useCallback(
    async (data: RecordData) => {
      mainData.current = data;
      const next = afterSave.current;
      afterSave.current = null;
      const drawerCheck = formValidator.validateFormData(drawerData.current, drawer.schema, undefined, undefined, drawer.uiSchema);
      if (drawerCheck.errors.length) {
        drawerRef.current?.submit();
        next?.cancel();
        return;
      }
      const merged = { ...data, ...drawerData.current };
      const body = mode === 'new' ? createBody(merged, fields, form) : updateBody(merged, record ?? {}, fields, form);
      if (mode === 'edit' && Object.keys(body).every((k) => k === 'version')) {
        if (next) next.run(record ?? {});
        else notify('info', 'Nessuna modifica da salvare');
        return;
      }
      setBusy('save');
      try {
        const saved = (mode === 'new' ? await create(resource, body) : await update(resource, id!, body)) as SavedWithWarnings;
        const rec = savedRecord(saved);
        setMainErrors(undefined);
        setDrawerErrors(undefined);
        setConflict(false);
        const warnings = saved.warnings ?? {};
        setSaveWarnings(warnings);
        notify('success', saved.message || 'Quotazione salvata con successo');
        for (const [field, messages] of Object.entries(warnings)) if (!drawerNames.includes(field)) notify('warning', messages.join(' '));
        setDirty(false);
        if (mode === 'new') {
          const editPath = resource.routes?.edit?.path;
          next?.cancel();
          if (editPath && rec.id !== undefined) navigate(generatePath(editPath, { id: String(rec.id) }), { replace: true });
          return;
        }
        setRecord(rec);
        show(rec);
        next?.run(rec);
      } catch (err) {
        fail(err);
        next?.cancel();
      } finally {
        setBusy(null);
      }
    },
    [drawer, drawerNames, mode, fields, form, record, resource, id, notify, navigate, show, fail],
  );

  /** Saves first when there are changes (the form validates and submits), else runs at once. */
  const withSavedForm = useCallback(
    (pending: Pending) => {
      if (dirtyRef.current && record && editableFor(record)) {
        afterSave.current = pending;
        mainRef.current?.submit();
      } else {
        pending.run(record ?? {});
      }
    },
    [record, editableFor],
  );

  const onMainInvalid = useCallback(() => {
    afterSave.current?.cancel();
    afterSave.current = null;
  }, []);

  const calculate = useCallback(() => {
    const run = async () => {
      setBusy('calcolo');
      try {
        const answer = await calcola(resource, { id: Number(id) });
        setCalcErrors([]);
        setSaveWarnings({});
        notify('success', answer.message || 'Calcolo eseguito.');
        if (answer.data?.model) {
          setRecord(answer.data.model);
          show(answer.data.model);
        } else {
          await load();
        }
        void loadHistory();
      } catch (err) {
        if (isApiError(err, 'VALIDATION')) setCalcErrors(flatten(err.errors).length ? flatten(err.errors) : [err.message]);
        fail(err);
      } finally {
        setBusy(null);
      }
    };
    withSavedForm({ run: () => void run(), cancel: () => undefined });
  }, [withSavedForm, resource, id, notify, show, load, loadHistory, fail]);

  /** Refreshes one historic vehicle's registry data on the server (saving the form first), then shows the stored record. */
  const refreshRegistry = useCallback(
    (vehicleId: string, targa: string, tipologia: string) => {
      const run = async () => {
        setBusy('registri');
        try {
          const answer = await callRoute<{ result: number; Error?: Array<{ descError: string }>; model: RecordData }>('POST', QUOTAZIONE_ROUTES.datiAnia, { veicolo: vehicleId, targa: targa.trim(), tipologia });
          setRecord(answer.model);
          show(answer.model);
          if (answer.result === 2) notify('danger', `${t.veicoli.erroreVerti}: ${answer.Error?.[0]?.descError ?? ''}`);
          else notify('success', t.veicoli.datiAggiornati);
        } catch (err) {
          fail(err);
        } finally {
          setBusy(null);
        }
      };
      withSavedForm({ run: () => void run(), cancel: () => undefined });
    },
    [withSavedForm, show, notify, fail],
  );

  /** Sends a workflow event through its route; a note goes in the field the event names. Returns field errors of the note. */
  const send = useCallback(
    (event: AvailableEvent, options: { nota?: string; stato?: number } = {}): Promise<string | undefined> =>
      new Promise((resolve) => {
        const run = async () => {
          setBusy(event.type);
          const noteField = event.meta.noteField ?? 'nota';
          try {
            const answer =
              event.meta.kind === 'manual'
                ? await transition(resource, event.meta.route!, undefined, { id: Number(id), [workflow.statusField]: options.stato })
                : await transition(resource, event.meta.route!, id!, options.nota?.trim() ? { [noteField]: options.nota.trim() } : {});
            notify('success', answer.message || event.meta.label);
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
            await load();
            void loadHistory();
          }
        };
        withSavedForm({ run: () => void run(), cancel: () => resolve(undefined) });
      }),
    [withSavedForm, resource, id, workflow, notify, fail, load, loadHistory],
  );

  return {
    mode,
    mainFormId: MAIN_FORM_ID,
    workflow,
    record,
    loadError,
    loading: mode === 'edit' && !record && !loadError,
    formKey,
    mainSchema,
    drawerSchema,
    drawerNames,
    initialMain,
    initialDrawer,
    mainRef,
    drawerRef,
    mainErrors,
    drawerErrors,
    busy,
    dirty,
    dirtyRef,
    conflict,
    saveWarnings,
    calcErrors,
    history,
    drawerLive,
    onMainChange,
    onDrawerChange,
    onMainInvalid,
    save,
    calculate,
    send,
    reload: load,
    refreshRegistry,
    reloadHistory: () => void loadHistory(),
  };
}
