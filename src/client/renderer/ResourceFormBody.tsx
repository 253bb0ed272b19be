// The body every generic form shows, on a page or in a dialog: action bar, conflict notices and the schema form.
import type { ResourceDef } from '../types.ts';
import { can, useWorkflows } from '../lib/access.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { ConflictAlert, FormActionBar, SavingOverlay, TypedValuesPanel } from './FormParts.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import type { useResourceForm } from './useResourceForm.ts';

export interface ResourceFormBodyProps {
  def: ResourceDef;
  id?: string;
  formId: string;
  ctl: ReturnType<typeof useResourceForm>;
  onCancel: () => void;
}

export function ResourceFormBody({ def, id, formId, ctl, onCancel }: ResourceFormBodyProps) {
  const { resource, schema, form } = def;
  const { definitions } = useDefinitions();
  useWorkflows(def);
  const canSave = ctl.editable && (ctl.mode === 'new' ? can(def, 'create') : can(def, 'update', ctl.record));
  const activeField = resource.activeField && schema.properties?.[resource.activeField] ? resource.activeField : undefined;
  return (
    <>
      <FormActionBar
        formId={formId}
        mode={ctl.mode}
        canSave={canSave}
        saving={ctl.saving}
        errors={ctl.errorCount}
        activeLabel={activeField ? ((schema.properties?.[activeField]?.title as string | undefined) ?? 'Attivo') : undefined}
        active={ctl.active}
        onActive={activeField ? ctl.setActive : undefined}
        onCancel={onCancel}
      />
      {ctl.conflict && <ConflictAlert onReload={ctl.reloadLatest} />}
      {ctl.typed && <TypedValuesPanel typed={ctl.typed} onReapply={ctl.reapplyTyped} onDismiss={ctl.dismissTyped} />}
      <div className="position-relative" aria-busy={ctl.saving}>
        <SchemaForm
          key={ctl.formKey}
          id={formId}
          formRef={ctl.formRef}
          schema={schema}
          formUi={form}
          activeField={activeField}
          initialData={ctl.initial}
          resources={definitions?.resources}
          recordId={id}
          labels={ctl.record}
          extraErrors={ctl.extraErrors}
          disabled={!canSave}
          onChange={ctl.onChange}
          onSubmit={ctl.submit}
          onValidity={ctl.setErrorCount}
        />
        <SavingOverlay show={ctl.saving} />
      </div>
    </>
  );
}
