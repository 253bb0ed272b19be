// Headless form controller: load, dirty tracking, create/update with version, 422 and 409 handling.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import type Form from '@rjsf/core';
import { getDefaultFormState } from '@rjsf/utils';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { isApiError, create, getOne, savedRecord, update } from '../api/dataProvider.ts';
import { fillTemplate } from '../lib/format.ts';
import { useNotify } from '../lib/notify.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { changedFields, createBody, displayValue, pickFields, sameValue, toErrorSchema, updateBody, withoutErrorsOf } from './formBody.ts';
import { DEFAULTS_BEHAVIOUR, prepareForm } from './formSchema.ts';
import { formValidator } from './validator.ts';

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
}

/** The schemas useResourceForm validates against: what WithFormValidators must load first. */
export function resourceFormSchemas(def: ResourceDef): RJSFSchema[] {
  return [prepareForm(def.schema, def.form, def.resource.activeField).schema];
}

export function useResourceForm(def: ResourceDef, id: string | undefined, options: ResourceFormOptions = {}) {
  const { resource, schema, form } = def;
  const navigate = useNavigate();
  const notify = useNotify();
  const mode: 'new' | 'edit' = id ? 'edit' : 'new';
  const prepared = useMemo(() => prepareForm(schema, form, resource.activeField), [schema, form, resource.activeField]);
  const fields = prepared.fields;
  const withDefaults = useCallback(
    (record: RecordData | undefined) =>
      getDefaultFormState(formValidator, prepared.schema, pickFields(record, fields), prepared.schema as RJSFSchema, false, DEFAULTS_BEHAVIOUR) as RecordData,
    [prepared, fields],
  );

  const formRef = useRef<Form>(null);
  const [original, setOriginal] = useState<RecordData | undefined>(id ? undefined : {});
  const [initial, setInitial] = useState<RecordData>(() => (id ? {} : withDefaults(options.preset ?? {})));
  const onSaved = useRef(options.onSaved);
  onSaved.current = options.onSaved;
  const [formKey, setFormKey] = useState(0);
  const [loadError, setLoadError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [dirty, setDirtyState] = useState(false);
  const [extraErrors, setExtraErrors] = useState<ErrorSchema>();
  const [conflict, setConflict] = useState<RecordData | null>(null);
  const [typed, setTyped] = useState<TypedValue[] | null>(null);
  const [errorCount, setErrorCount] = useState(0);
  const [active, setActive] = useState<unknown>(() => initial[resource.activeField ?? '']);
  const current = useRef<RecordData>(initial);
  const baseline = useRef<RecordData>(initial);
  const dirtyRef = useRef(false);

  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };

  /** Puts a record (or typed data) in the form by remounting it. */
  const show = useCallback(
    (data: RecordData, isDirty = false) => {
      current.current = data;
      setInitial(data);
      setActive(resource.activeField ? data[resource.activeField] : undefined);
      setFormKey((k) => k + 1);
      dirtyRef.current = isDirty;
      setDirtyState(isDirty);
    },
    [resource.activeField],
  );

  useEffect(() => {
    if (!id) return;
    let cancelled = false;
    getOne(resource, id)
      .then((record) => {
        if (cancelled) return;
        setOriginal(record);
        const data = withDefaults(record);
        baseline.current = data;
        show(data);
      })
      .catch((err: unknown) => !cancelled && setLoadError(err instanceof Error ? err.message : msg.genericError));
    return () => {
      cancelled = true;
    };
  }, [id, resource, withDefaults, show]);

  const onChange = useCallback(
    (data: RecordData) => {
      const previous = current.current;
      current.current = data;
      const isDirty = changedFields(data, baseline.current, fields).length > 0;
      if (isDirty !== dirtyRef.current) setDirty(isDirty);
      if (resource.activeField && !sameValue(data[resource.activeField], previous[resource.activeField])) setActive(data[resource.activeField]);
      // A server message stays until the user touches that field.
      const touched = Object.keys(data).filter((f) => !sameValue(data[f], previous[f]));
      setExtraErrors((errors) => withoutErrorsOf(errors, touched));
    },
    [fields, resource.activeField],
  );

  const submit = useCallback(
    async (data: RecordData) => {
      if (saving) return;
      const body = mode === 'new' ? createBody(data, fields, form) : updateBody(data, original ?? {}, fields, form);
      if (mode === 'edit' && Object.keys(body).every((k) => k === 'version')) {
        notify('info', 'Nessuna modifica da salvare');
        return;
      }
      setSaving(true);
      try {
        const saved = mode === 'new' ? await create(resource, body) : await update(resource, id!, body);
        const record = savedRecord(saved);
        setExtraErrors(undefined);
        setConflict(null);
        setDirty(false);
        notify('success', (mode === 'new' ? options.createdMessage : undefined) || saved.message || 'Salvataggio completato');
        // Warnings do not block the save: shown as such, once.
        for (const messages of Object.values(saved.warnings ?? {})) notify('warning', messages.join(' '));
        if (mode === 'new' && !onSaved.current) {
          const editPath = resource.routes?.edit?.path;
          if (editPath && record.id !== undefined) navigate(generatePath(editPath, { id: String(record.id) }), { replace: true });
          else if (resource.routes?.list?.path) navigate(resource.routes.list.path);
        } else {
          setOriginal(record);
          baseline.current = { ...baseline.current, ...pickFields(record, fields) };
          const stillDirty = changedFields(current.current, baseline.current, fields).length > 0;
          setDirty(stillDirty);
        }
        onSaved.current?.(record, mode);
      } catch (err) {
        if (isApiError(err, 'VALIDATION')) {
          setExtraErrors(toErrorSchema(err.errors));
          notify('danger', err.message);
        } else if (isApiError(err, 'STALE_VERSION')) {
          // Keep the typed data on screen; the user decides when to reload.
          // The alert above the form says it; a toast as well would only repeat it.
          setConflict((err.body.current as RecordData | undefined) ?? {});
        } else {
          notify('danger', err instanceof Error ? err.message : msg.genericError);
        }
      } finally {
        setSaving(false);
      }
    },
    [saving, mode, fields, form, original, resource, id, navigate, notify, options.createdMessage],
  );

  /** After a 409: show the other user's version and list what this user had typed. */
  const reloadLatest = useCallback(async () => {
    const mine = changedFields(current.current, baseline.current, fields).map((field) => ({
      field,
      label: (schema.properties?.[field]?.title as string | undefined) ?? field,
      value: current.current[field],
      text: displayValue(schema.properties?.[field], current.current[field]),
    }));
    let latest = conflict && Object.keys(conflict).length ? conflict : undefined;
    try {
      latest ??= await getOne(resource, id!);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
      return;
    }
    setOriginal(latest);
    const data = withDefaults(latest);
    baseline.current = data;
    setConflict(null);
    setExtraErrors(undefined);
    setTyped(mine.length ? mine : null);
    show(data);
  }, [conflict, fields, schema, resource, id, withDefaults, show, notify]);

  /** Puts the typed values back on top of the reloaded version, to review and save again. */
  const reapplyTyped = useCallback(() => {
    if (!typed) return;
    const data = { ...current.current };
    for (const item of typed) data[item.field] = item.value;
    setTyped(null);
    show(data, changedFields(data, baseline.current, fields).length > 0);
  }, [typed, show, fields]);

  const setActiveValue = useCallback(
    (value: boolean) => {
      if (!resource.activeField) return;
      formRef.current?.setFieldValue(resource.activeField, value as never);
    },
    [resource.activeField],
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
    formRef,
    formKey,
    initial,
    saving,
    dirty,
    dirtyRef,
    extraErrors,
    conflict: conflict !== null,
    typed,
    errorCount,
    setErrorCount,
    active,
    setActive: setActiveValue,
    onChange,
    submit,
    reloadLatest,
    reapplyTyped,
    dismissTyped: () => setTyped(null),
  };
}
