// Headless form controller: load, dirty tracking, create/update with version, 422 and 409 handling, save before an action.
import { createRef, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import type Form from '@rjsf/core';
import { getDefaultFormState } from '@rjsf/utils';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { isApiError, create, getOne, savedRecord, update } from '../api/dataProvider.ts';
import { fillTemplate } from '../lib/format.ts';
import { useNotify } from '../lib/notify.tsx';
import { msg } from '../messages.ts';
import type { JsonSchema, RecordData, ResourceDef } from '../types.ts';
import { changedFields, createBody, displayValue, pickFields, sameValue, toErrorSchema, updateBody, withoutErrorsOf } from './formBody.ts';
import { DEFAULTS_BEHAVIOUR, prepareForm } from './formSchema.ts';
import type { PreparedForm } from './formSchema.ts';
import { formValidator } from './validator.ts';
import { flushTyping } from './TypingForm.tsx';
import { warnPatternsOf } from '../../shared/warnPattern.ts';

export interface TypedValue {
  field: string;
  label: string;
  value: unknown;
  text: string;
}

export interface ResourceFormOptions {
  /** Values a new record starts from (e.g. the collaborator a product is assigned to); not counted as changes. */
  preset?: RecordData;
  /** Called after a save instead of moving to the edit route (the form lives in a dialog). */
  onSaved?: (record: RecordData, mode: 'new' | 'edit') => void;
  /** The notice after a create, when the screen's texts name it (spec 002: 'polizza inserito'). */
  createdMessage?: string;
  /** The notice after a save when the server sends none. */
  savedMessage?: string;
  /**
   * Several forms over one record, by name (default: the resource's form). The first one's submit saves them all;
   * the others must be valid first. Memoise it: a new object remounts nothing but recomputes every handler.
   */
  sections?: Record<string, PreparedForm>;
  /** A section's data as a record shows it, beyond the schema's defaults (e.g. rows that follow a count); not a change. */
  arrange?: (section: string, data: RecordData, record: RecordData) => RecordData;
  /** Whether the shown record may be saved: a save before an action only happens then (default: always). */
  editable?: (record: RecordData) => boolean;
  /** Fields whose save warnings the screen shows beside them rather than as a notice. */
  inlineWarnings?: string[];
  /** Shows the saved record again (the server fills fields on save) instead of keeping the form as typed. */
  reshowSaved?: boolean;
}

/** What waits for the form to be stored first: run once saved, cancel when it is not. */
export interface AfterSave {
  run: (saved: RecordData) => void;
  cancel: () => void;
  /** The action that follows reports the outcome: no success notice for the save before it (it may yet fail). */
  quiet?: boolean;
}

/** One form of the record as the screen renders it. */
export interface SectionControl {
  formRef: RefObject<Form | null>;
  initial: RecordData;
  extraErrors: ErrorSchema | undefined;
  onChange: (data: RecordData) => void;
}

type BySection<T> = Record<string, T>;

/** The schemas useResourceForm validates against: what WithFormValidators must load first. */
export function resourceFormSchemas(def: ResourceDef): RJSFSchema[] {
  return [prepareForm(def.schema, def.form, def.resource.activeField).schema];
}

function merged(data: BySection<RecordData>): RecordData {
  return Object.assign({}, ...Object.values(data)) as RecordData;
}

export function useResourceForm(def: ResourceDef, id: string | undefined, options: ResourceFormOptions = {}) {
  const { resource, schema, form } = def;
  const navigate = useNavigate();
  const notify = useNotify();
  const mode: 'new' | 'edit' = id ? 'edit' : 'new';
  const opts = useRef(options);
  opts.current = options;
  const prepared = useMemo(() => prepareForm(schema, form, resource.activeField), [schema, form, resource.activeField]);
  const sections = useMemo(() => options.sections ?? { form: prepared }, [options.sections, prepared]);
  const names = useMemo(() => Object.keys(sections), [sections]);
  const first = names[0];
  const fields = useMemo(() => Object.values(sections).flatMap((section) => section.fields), [sections]);
  /** A record's data in each section, with the schema's defaults. */
  const toSections = useCallback(
    (record: RecordData): BySection<RecordData> =>
      Object.fromEntries(
        Object.entries(sections).map(([name, section]) => {
          const data = getDefaultFormState(formValidator, section.schema, pickFields(record, [...section.fields, ...section.readOnly], section.schema as JsonSchema), section.schema, false, DEFAULTS_BEHAVIOUR) as RecordData;
          return [name, opts.current.arrange?.(name, data, record) ?? data];
        }),
      ),
    [sections],
  );

  const formRefs = useMemo(() => Object.fromEntries(names.map((name) => [name, createRef<Form>()])), [names]);
  const [original, setOriginal] = useState<RecordData | undefined>(id ? undefined : {});
  const [initial, setInitial] = useState<BySection<RecordData>>(() =>
    id ? Object.fromEntries(names.map((name) => [name, {}])) : toSections(options.preset ?? {}),
  );
  const onSaved = useRef(options.onSaved);
  onSaved.current = options.onSaved;
  const [formKey, setFormKey] = useState(0);
  const [loadError, setLoadError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [dirty, setDirtyState] = useState(false);
  const [extraErrors, setExtraErrors] = useState<BySection<ErrorSchema | undefined>>({});
  const [conflict, setConflict] = useState<RecordData | null>(null);
  const [typed, setTyped] = useState<TypedValue[] | null>(null);
  const [warnings, setWarnings] = useState<Record<string, string[]>>({});
  const [errorCount, setErrorCount] = useState(0);
  const [active, setActive] = useState<unknown>(() => merged(initial)[resource.activeField ?? '']);
  const current = useRef<BySection<RecordData>>(initial);
  const baseline = useRef<RecordData>(merged(initial));
  const dirtyRef = useRef(false);
  const afterSave = useRef<AfterSave | null>(null);

  // Read where the user may leave: the keys typed last are committed first, so they count as changes.
  const readDirty = useMemo(
    () => ({
      get current() {
        flushTyping();
        return dirtyRef.current;
      },
    }),
    [],
  );

  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };

  /** Puts data (a record's, or typed) in the forms by remounting them. */
  const show = useCallback(
    (data: BySection<RecordData>, isDirty = false) => {
      current.current = data;
      setInitial(data);
      setActive(resource.activeField ? merged(data)[resource.activeField] : undefined);
      setFormKey((k) => k + 1);
      dirtyRef.current = isDirty;
      setDirtyState(isDirty);
    },
    [resource.activeField],
  );

  /** Shows a record as stored: it becomes the clean state. */
  const showRecord = useCallback(
    (record: RecordData) => {
      setOriginal(record);
      const data = toSections(record);
      baseline.current = merged(data);
      show(data);
    },
    [toSections, show],
  );

  useEffect(() => {
    if (!id) return;
    let cancelled = false;
    getOne(resource, id)
      .then((record) => !cancelled && showRecord(record))
      .catch((err: unknown) => !cancelled && setLoadError(err instanceof Error ? err.message : msg.genericError));
    return () => {
      cancelled = true;
    };
  }, [id, resource, showRecord]);

  /** Reads the record again (its status may have moved) and shows it, dropping what was typed. */
  const reload = useCallback(async () => {
    if (!id) return;
    try {
      showRecord(await getOne(resource, id));
      setConflict(null);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : msg.genericError);
    }
  }, [id, resource, showRecord]);

  const onChange = useMemo(
    () =>
      Object.fromEntries(
        names.map((name) => [
          name,
          (data: RecordData) => {
            const previous = current.current[name] ?? {};
            current.current = { ...current.current, [name]: data };
            const isDirty = changedFields(merged(current.current), baseline.current, fields).length > 0;
            if (isDirty !== dirtyRef.current) setDirty(isDirty);
            if (resource.activeField && !sameValue(data[resource.activeField], previous[resource.activeField])) setActive(data[resource.activeField]);
            // A server message stays until the user touches that field.
            const touched = Object.keys(data).filter((f) => !sameValue(data[f], previous[f]));
            setExtraErrors((errors) => {
              const next = withoutErrorsOf(errors[name], touched);
              return next === errors[name] ? errors : { ...errors, [name]: next };
            });
          },
        ]),
      ),
    [names, fields, resource.activeField],
  );

  /** Server errors land under their fields, in whichever section holds the field (the first one otherwise). */
  const showFieldErrors = useCallback(
    (errors: Record<string, string[]>) => {
      const sectionOf = (path: string) => names.slice(1).find((name) => sections[name].fields.includes(path.split('.')[0])) ?? first;
      setExtraErrors(
        Object.fromEntries(names.map((name) => [name, toErrorSchema(Object.fromEntries(Object.entries(errors).filter(([path]) => sectionOf(path) === name)))])),
      );
    },
    [names, sections, first],
  );

  /** The answer to a failed write: 422 under the fields, 409 kept for the user to reload, anything else as a notice. */
  const fail = useCallback(
    (err: unknown) => {
      if (isApiError(err, 'VALIDATION')) {
        showFieldErrors(err.errors);
        notify('danger', err.message);
      } else if (isApiError(err, 'STALE_VERSION')) {
        // Keep the typed data on screen; the user decides when to reload.
        // The alert above the form says it; a toast as well would only repeat it.
        setConflict((err.body.current as RecordData | undefined) ?? {});
      } else {
        notify('danger', err instanceof Error ? err.message : msg.genericError);
      }
    },
    [showFieldErrors, notify],
  );

  /** The first section's submit (rjsf found it valid): stores every section, then runs what waited for the save. */
  const submit = useCallback(
    async (data: RecordData) => {
      const next = afterSave.current;
      afterSave.current = null;
      if (saving) {
        next?.cancel();
        return;
      }
      current.current = { ...current.current, [first]: data };
      for (const name of names.slice(1)) {
        const section = sections[name];
        if (!formValidator.validateFormData(current.current[name], section.schema, undefined, undefined, section.uiSchema).errors.length) continue;
        // Its own submit shows the errors under its fields.
        formRefs[name].current?.submit();
        next?.cancel();
        return;
      }
      const values = merged(current.current);
      const body = mode === 'new' ? createBody(values, fields, form, schema) : updateBody(values, original ?? {}, fields, form, schema);
      if (mode === 'edit' && Object.keys(body).every((k) => k === 'version')) {
        if (next) next.run(original ?? {});
        else notify('info', 'Nessuna modifica da salvare');
        return;
      }
      setSaving(true);
      try {
        const saved = mode === 'new' ? await create(resource, body) : await update(resource, id!, body);
        const record = savedRecord(saved);
        setExtraErrors({});
        setConflict(null);
        const savedWarnings = saved.warnings ?? {};
        setWarnings(savedWarnings);
        setDirty(false);
        if (!next?.quiet) notify('success', (mode === 'new' ? opts.current.createdMessage : undefined) || saved.message || opts.current.savedMessage || 'Salvataggio completato');
        // Warnings do not block the save: shown as such, once (those the form shows at their field as typed, there).
        const shownLive = warnPatternsOf(schema);
        for (const [field, messages] of Object.entries(savedWarnings)) if (!opts.current.inlineWarnings?.includes(field) && !shownLive[field]) notify('warning', messages.join(' '));
        if (mode === 'new' && !onSaved.current) {
          next?.cancel();
          const editPath = resource.routes?.edit?.path;
          if (editPath && record.id !== undefined) navigate(generatePath(editPath, { id: String(record.id) }), { replace: true });
          else if (resource.routes?.list?.path) navigate(resource.routes.list.path);
        } else if (opts.current.reshowSaved) {
          showRecord(record);
          next?.run(record);
        } else {
          setOriginal(record);
          baseline.current = { ...baseline.current, ...pickFields(record, fields, schema) };
          const stillDirty = changedFields(merged(current.current), baseline.current, fields).length > 0;
          setDirty(stillDirty);
          next?.run(record);
        }
        onSaved.current?.(record, mode);
      } catch (err) {
        fail(err);
        next?.cancel();
      } finally {
        setSaving(false);
      }
    },
    [saving, first, names, sections, formRefs, mode, fields, form, schema, original, resource, id, navigate, notify, showRecord, fail],
  );

  /** Saves first when there are changes (the first section validates and submits), else runs at once. */
  const saveThen = useCallback(
    (pending: AfterSave) => {
      flushTyping();
      if (dirtyRef.current && original && (opts.current.editable?.(original) ?? true)) {
        afterSave.current = pending;
        formRefs[first].current?.submit();
      } else {
        pending.run(original ?? {});
      }
    },
    [original, formRefs, first],
  );

  /** The first section did not validate: what waited for the save does not happen. */
  const onInvalid = useCallback(() => {
    afterSave.current?.cancel();
    afterSave.current = null;
  }, []);

  /** After a 409: show the other user's version and list what this user had typed. */
  const reloadLatest = useCallback(async () => {
    const values = merged(current.current);
    const mine = changedFields(values, baseline.current, fields).map((field) => ({
      field,
      label: (schema.properties?.[field]?.title as string | undefined) ?? field,
      value: values[field],
      text: displayValue(schema.properties?.[field], values[field]),
    }));
    let latest = conflict && Object.keys(conflict).length ? conflict : undefined;
    try {
      latest ??= await getOne(resource, id!);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
      return;
    }
    setConflict(null);
    setExtraErrors({});
    setTyped(mine.length ? mine : null);
    showRecord(latest);
  }, [conflict, fields, schema, resource, id, showRecord, notify]);

  /** Puts the typed values back on top of the reloaded version, to review and save again. */
  const reapplyTyped = useCallback(() => {
    if (!typed) return;
    const data = { ...current.current };
    for (const item of typed) {
      const name = names.find((n) => sections[n].fields.includes(item.field)) ?? first;
      data[name] = { ...data[name], [item.field]: item.value };
    }
    setTyped(null);
    show(data, changedFields(merged(data), baseline.current, fields).length > 0);
  }, [typed, names, sections, first, show, fields]);

  const setActiveValue = useCallback(
    (value: boolean) => {
      if (!resource.activeField) return;
      formRefs[first].current?.setFieldValue(resource.activeField, value as never);
    },
    [resource.activeField, formRefs, first],
  );

  const values = useCallback(() => merged(current.current), []);
  const clearWarnings = useCallback(() => setWarnings({}), []);

  const sectionControls = useMemo(
    () =>
      Object.fromEntries(
        names.map((name): [string, SectionControl] => [name, { formRef: formRefs[name], initial: initial[name], extraErrors: extraErrors[name], onChange: onChange[name] }]),
      ),
    [names, formRefs, initial, extraErrors, onChange],
  );

  const title =
    mode === 'new'
      ? `${resource.newTitle ?? resource.singular ?? resource.title} - ${resource.feminine ? 'Nuova' : 'Nuovo'}`
      : (original && fillTemplate(resource.recordTitle ?? '', original)) || `${resource.singular ?? resource.title} ${id ?? ''}`.trim();

  return {
    mode,
    title,
    /** The record as last loaded or saved (what custom tabs show). */
    record: original,
    loading: mode === 'edit' && !original && !loadError,
    loadError,
    formKey,
    /** The first section's form (the only one without `sections`). */
    ...sectionControls[first],
    sections: sectionControls,
    /** The values on screen, every section together. */
    values,
    /** Whether the form has a field to type in (a record shown only to be read has none). */
    editable: fields.length > 0,
    saving,
    dirty,
    dirtyRef: readDirty,
    conflict: conflict !== null,
    typed,
    warnings,
    clearWarnings,
    errorCount,
    setErrorCount,
    active,
    setActive: setActiveValue,
    submit,
    onInvalid,
    saveThen,
    fail,
    reload,
    showRecord,
    reloadLatest,
    reapplyTyped,
    dismissTyped: () => setTyped(null),
  };
}
