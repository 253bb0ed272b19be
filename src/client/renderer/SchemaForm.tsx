// The generic form: rjsf (react-bootstrap theme) with the Italian validator, our templates and the widget registry.
import { useDebouncedCallback } from 'use-debounce';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Ref } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { Theme } from '@rjsf/react-bootstrap';
import { TranslatableString } from '@rjsf/utils';
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { rjsfWidgets } from '../widgets/registry.ts';
import type { FormUi, JsonSchema, RecordData, ResourceDef } from '../types.ts';
import { DEFAULTS_BEHAVIOUR, prepareForm, type PreparedForm } from './formSchema.ts';
import { fieldOfId } from './layout.ts';
import { formTemplates } from './templates.tsx';
import { formValidator, useFormValidators } from './validator.ts';
import { Notice, Spinner } from '../lib/ui.tsx';
import { TypingContext } from '../widgets/typing.ts';
import { TypingForm } from './TypingForm.tsx';
import { computedProperties, staleComputed, staleHiddenRows } from '../../shared/rules.ts';

const templates = { ...Theme.templates, ...formTemplates };
// Built at first render, after the feature modules registered their widgets.
let widgets: ReturnType<typeof rjsfWidgets> | undefined;
const allWidgets = () => (widgets ??= { ...Theme.widgets, ...rjsfWidgets() });

const italian: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'Aggiungi',
  [TranslatableString.AddItemButton]: 'Aggiungi elemento',
  [TranslatableString.RemoveButton]: 'Rimuovi',
  [TranslatableString.MoveUpButton]: 'Sposta su',
  [TranslatableString.MoveDownButton]: 'Sposta giù',
  [TranslatableString.CopyButton]: 'Copia',
  [TranslatableString.YesLabel]: 'Sì',
  [TranslatableString.NoLabel]: 'No',
  [TranslatableString.ClearLabel]: 'Cancella',
  [TranslatableString.ClearButton]: 'cancella il campo',
  [TranslatableString.ErrorsLabel]: 'Errori',
  [TranslatableString.EmptyArray]: 'Nessun elemento. Usa il pulsante qui sotto per aggiungerne.',
  [TranslatableString.ArrayItemTitle]: 'Elemento',
  [TranslatableString.NewStringDefault]: 'Nuovo valore',
};

function translateString(key: TranslatableString, params?: string[]): string {
  const text = italian[key] ?? key;
  return (params ?? []).reduce((out, value, i) => out.replaceAll(`%${i + 1}`, value), text);
}

export function countErrors(errorSchema: ErrorSchema | undefined): number {
  if (!errorSchema || typeof errorSchema !== 'object') return 0;
  let total = 0;
  for (const [key, value] of Object.entries(errorSchema)) {
    if (key === '__errors') total += Array.isArray(value) ? value.length : 0;
    else total += countErrors(value as ErrorSchema);
  }
  return total;
}

/** '.responsabile.cf' → 'responsabile'. */
const topField = (property: string | undefined) =>
  String(property ?? '')
    .replace(/^\./, '')
    .split('.')[0];

export interface SchemaFormProps {
  id: string;
  schema: JsonSchema;
  formUi: FormUi;
  activeField?: string;
  /** Uncontrolled: a new value only applies when the parent remounts the form (key). */
  initialData: RecordData;
  /** Resources from /api/definitions, for 'reference' widgets. */
  resources?: ResourceDef[];
  /** Id of the record being edited, for look-ups that depend on it (e.g. who may be its superior). */
  recordId?: string;
  /** The record as read, whose `<field>__label` names each reference (shown without asking the server again). */
  labels?: RecordData;
  extraErrors?: ErrorSchema;
  disabled?: boolean;
  onChange?: (data: RecordData, fieldId?: string) => void;
  onSubmit?: (data: RecordData) => void;
  onInvalid?: (errorCount: number) => void;
  /** Current number of errors (schema + server), recomputed shortly after each change. */
  onValidity?: (errorCount: number) => void;
  formRef?: Ref<Form>;
  /** The fields' id prefix ('root'): another one for a second form on the same page, so labels name their own inputs. */
  idPrefix?: string;
  /** Extra context for widgets, e.g. a look-up prefix for a form used without login. */
  context?: Record<string, unknown>;
}

/**
 * Shows the form once its compiled validator is loaded. When the schema changes (a choice narrows another field),
 * the form keeps its previous schema until the new validator arrives, so it is never unmounted mid-typing.
 */
export function SchemaForm(props: SchemaFormProps) {
  const { schema, formUi, activeField } = props;
  const wanted = useMemo(() => prepareForm(schema, formUi, activeField), [schema, formUi, activeField]);
  const schemas = useMemo(() => [wanted.schema], [wanted]);
  const { ready, error } = useFormValidators(schemas);
  const [shown, setShown] = useState<PreparedForm>();
  if (ready && shown !== wanted) setShown(wanted);
  const prepared = ready ? wanted : shown;
  if (prepared) return <SchemaFormBody {...props} prepared={prepared} />;
  if (error) return <Notice variant="danger" role="alert">{`Impossibile caricare il modulo: ${error}`}</Notice>;
  return <Spinner label="Caricamento del modulo…" />;
}

function SchemaFormBody(props: SchemaFormProps & { prepared: PreparedForm }) {
  const { id, schema, prepared, initialData, resources, recordId, labels, extraErrors, disabled, onChange, onSubmit, onInvalid, onValidity, formRef, context } = props;
  const latest = useRef<RecordData>(initialData);
  const form = useRef<TypingForm | null>(null);
  // A row of an array dropped at another place (templates.tsx): the array rewritten as one change of the form.
  const riordina = useCallback((path: ReadonlyArray<string | number>, from: number, to: number) => {
    const list = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown> | undefined)?.[key], latest.current);
    if (!Array.isArray(list) || from >= list.length || to >= list.length) return;
    const next = [...list];
    next.splice(to, 0, ...next.splice(from, 1));
    form.current?.setFieldValue([...path], next as never);
  }, []);
  const formContext = useMemo(() => ({ ...context, resources, recordId, labels, riordina }), [context, resources, recordId, labels, riordina]);
  // "x-computed" fields: shown read-only, recomputed from the record's own fields on every change.
  const computed = useMemo(() => computedProperties(schema), [schema]);
  const setForm = useCallback(
    (instance: TypingForm | null) => {
      form.current = instance;
      if (typeof formRef === 'function') formRef(instance);
      else if (formRef) (formRef as { current: Form | null }).current = instance;
    },
    [formRef],
  );
  // Errors show for fields the user has left once, and for all after a save attempt; then they follow every keystroke.
  const touched = useRef(new Set<string>());
  const submitted = useRef(false);
  const transformErrors = useMemo(
    () => (errors: RJSFValidationError[]) => (submitted.current ? errors : errors.filter((e) => touched.current.has(topField(e.property)))),
    [],
  );
  // Counting errors on every keystroke would cost the typing latency; a short pause is enough for the chip.
  const countValidity = useDebouncedCallback(() => {
    const { errors } = formValidator.validateFormData(latest.current, prepared.schema, undefined, undefined, prepared.uiSchema);
    onValidity?.(errors.length + countErrors(extraErrors));
  }, 250);
  const typed = useCallback((change: () => void) => (form.current ? form.current.typed(change) : change()), []);
  const scheduleValidity = (data: RecordData) => {
    latest.current = data;
    if (onValidity) countValidity();
  };
  useEffect(() => {
    scheduleValidity(latest.current);
    // Recount when the schema or the server's errors change; data changes schedule their own count.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prepared, extraErrors]);

  return (
    // Capture runs before rjsf's own submit handler validates, so the attempt already counts.
    <div onSubmitCapture={() => (submitted.current = true)}>
      <TypingContext value={typed}>
        <TypingForm
          ref={setForm}
          id={id}
          idPrefix={props.idPrefix}
          className="schema-form"
          schema={prepared.schema}
          uiSchema={prepared.uiSchema}
          initialFormData={initialData}
          validator={formValidator}
          templates={templates}
          widgets={allWidgets()}
          formContext={formContext}
          extraErrors={extraErrors}
          disabled={disabled}
          experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
          liveValidate="onChange"
          transformErrors={transformErrors}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
          translateString={translateString}
          onChange={(event: IChangeEvent, fieldId?: string) => {
            let data = (event.formData ?? {}) as RecordData;
            for (const [name, value] of staleComputed(computed, data)) {
              data = { ...data, [name]: value };
              form.current?.setFieldValue(name, value as never);
            }
            // A row's field its own condition hides holds no data (a truck's weight once the row is a car).
            for (const [name, rows] of staleHiddenRows(schema, data)) {
              data = { ...data, [name]: rows };
              form.current?.setFieldValue(name, rows as never);
            }
            scheduleValidity(data);
            onChange?.(data, fieldId);
          }}
          onSubmit={(event: IChangeEvent) => onSubmit?.((event.formData ?? {}) as RecordData)}
          onBlur={(fieldId: string) => {
            const field = fieldOfId(fieldId, prepared.fields);
            if (field && !touched.current.has(field)) {
              touched.current.add(field);
              // Re-setting the same value runs live validation (without moving focus), now counting this field.
              // Deferred past the pointer gesture that moved the focus (TypingForm.revalidate): the message it shows
              // would move the next field under a held press, and the release there would be no click.
              // Only when the field has an error to show: a whole-form update is worth more than one validation.
              form.current?.revalidate(field, () =>
                formValidator.validateFormData(latest.current, prepared.schema, undefined, undefined, prepared.uiSchema).errors.some((e) => topField(e.property) === field),
              );
            }
          }}
          onError={(errors) => onInvalid?.(errors.length)}
        >
          {/* The action bar submits through the form attribute; rjsf's own button is not wanted. */}
          <></>
        </TypingForm>
      </TypingContext>
    </div>
  );
}
