// The generic form: rjsf (react-bootstrap theme) with the Italian validator, our templates and the widget registry.
import { useEffect, useMemo, useRef } from 'react';
import type { Ref } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { Theme } from '@rjsf/react-bootstrap';
import { TranslatableString } from '@rjsf/utils';
import type { ErrorSchema } from '@rjsf/utils';
import { rjsfWidgets } from '../widgets/registry.ts';
import type { FormUi, JsonSchema, RecordData, ResourceDef } from '../types.ts';
import { prepareForm } from './formSchema.ts';
import { formTemplates } from './templates.tsx';
import { formValidator } from './validator.ts';

const templates = { ...Theme.templates, ...formTemplates };
const widgets = { ...Theme.widgets, ...rjsfWidgets() };

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

export interface SchemaFormProps {
  id: string;
  schema: JsonSchema;
  formUi: FormUi;
  activeField?: string;
  /** Uncontrolled: a new value only applies when the parent remounts the form (key). */
  initialData: RecordData;
  /** Resources from /api/definitions, for 'reference' widgets. */
  resources?: ResourceDef[];
  extraErrors?: ErrorSchema;
  disabled?: boolean;
  onChange?: (data: RecordData, fieldId?: string) => void;
  onSubmit?: (data: RecordData) => void;
  onInvalid?: (errorCount: number) => void;
  /** Current number of errors (schema + server), recomputed shortly after each change. */
  onValidity?: (errorCount: number) => void;
  formRef?: Ref<Form>;
}

export function SchemaForm(props: SchemaFormProps) {
  const { id, schema, formUi, activeField, initialData, resources, extraErrors, disabled, onChange, onSubmit, onInvalid, onValidity, formRef } = props;
  const prepared = useMemo(() => prepareForm(schema, formUi, activeField), [schema, formUi, activeField]);
  const formContext = useMemo(() => ({ resources }), [resources]);
  const latest = useRef<RecordData>(initialData);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Counting errors on every keystroke would cost the typing latency; a short pause is enough for the chip.
  const scheduleValidity = (data: RecordData) => {
    latest.current = data;
    if (!onValidity) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const { errors } = formValidator.validateFormData(latest.current, prepared.schema, undefined, undefined, prepared.uiSchema);
      onValidity(errors.length + countErrors(extraErrors));
    }, 250);
  };
  useEffect(() => {
    scheduleValidity(latest.current);
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prepared, extraErrors]);

  return (
    <Form
      ref={formRef}
      id={id}
      className="schema-form"
      schema={prepared.schema}
      uiSchema={prepared.uiSchema}
      initialFormData={initialData}
      validator={formValidator}
      templates={templates}
      widgets={widgets}
      formContext={formContext}
      extraErrors={extraErrors}
      disabled={disabled}
      liveValidate="onBlur"
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      translateString={translateString}
      onChange={(event: IChangeEvent, fieldId?: string) => {
        const data = (event.formData ?? {}) as RecordData;
        scheduleValidity(data);
        onChange?.(data, fieldId);
      }}
      onSubmit={(event: IChangeEvent) => onSubmit?.((event.formData ?? {}) as RecordData)}
      onError={(errors) => onInvalid?.(errors.length)}
    >
      {/* The action bar submits through the form attribute; rjsf's own button is not wanted. */}
      <></>
    </Form>
  );
}
