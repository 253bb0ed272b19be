// rjsf templates: labelled fields with errors tied to inputs, and the root object laid out in sections.
import { RequiredMark } from '../lib/RequiredMark.tsx';
import { cloneElement, isValidElement } from 'react';
import type { ReactElement } from 'react';
import { useState } from 'react';
import type { ArrayFieldItemTemplateProps, FieldErrorProps, FieldTemplateProps, ObjectFieldTemplateProps, TemplatesType } from '@rjsf/utils';
import { Theme } from '@rjsf/react-bootstrap';
import { registry } from '../widgets/registry.ts';
import { descriptionIdOf, errorIdOf } from '../widgets/aria.ts';
import { buildSections, conditionalTitle, isHiddenBy } from './layout.ts';
import type { JsonSchema, LayoutSection } from '../types.ts';
import { hiddenProperties } from '../../shared/rules.ts';
import { patternWarning, warnPatternsOf } from '../../shared/warnPattern.ts';

/** The entity's advice on a top-level field's value ("x-warn-pattern"), shown as typed; it never blocks a save. */
function warningOf(props: FieldTemplateProps): string | undefined {
  const path = props.fieldPathId.path;
  if (path.length !== 1) return undefined;
  return patternWarning(warnPatternsOf(props.registry.rootSchema as Record<string, unknown>)[String(path[0])], props.formData);
}

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, rawDescription, hidden, required, displayLabel, schema, uiSchema, classNames } = props;
  if (hidden) return <div className="d-none">{children}</div>;
  // Objects draw their own legend; the root object draws sections.
  if (schema.type === 'object') return children;
  const widget = uiSchema?.['ui:widget'];
  const ownsLabel = typeof widget === 'string' && registry[widget]?.ownsLabel;
  const warning = warningOf(props);
  return (
    <div className={`mb-3 ${classNames ?? ''}`}>
      {displayLabel && !ownsLabel && (
        <label htmlFor={id} className="form-label">
          {label}
          <RequiredMark required={required} />
        </label>
      )}
      {children}
      {rawDescription && (
        <div id={descriptionIdOf(id)} className="form-text">
          {rawDescription}
        </div>
      )}
      {errors}
      {warning && (
        <div id={`${id}__warning`} className="form-text text-warning-emphasis" role="status">
          {warning}
        </div>
      )}
      {help}
    </div>
  );
}

function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const messages = (errors ?? []).filter(Boolean);
  if (!messages.length) return null;
  return (
    <div id={errorIdOf(fieldPathId.$id)} className="invalid-feedback d-block">
      {messages.map((message, i) => (
        <div key={i}>{message as string}</div>
      ))}
    </div>
  );
}

const wide = new Set(['textarea']);
const narrow = new Set(['switch', 'boolean']);

/** Bootstrap grid classes of a field's cell: plain class names, since a form redraws every cell on each change. */
const WIDTHS: Record<string, string> = { full: 'col-12', half: 'col-12 col-md-6', third: 'col-12 col-md-6 col-xl-4', quarter: 'col-12 col-md-6 col-xl-3' };

function columnFor(uiNode: Record<string, unknown> | undefined, type: unknown): string {
  // The definition's own width (form.ui.json "ui:width") comes first.
  const width = WIDTHS[uiNode?.['ui:width'] as string];
  if (width) return width;
  const widget = uiNode?.['ui:widget'] as string | undefined;
  // Nested objects and lists need the whole row.
  if ((widget && wide.has(widget)) || ((type === 'object' || type === 'array') && widget !== 'checkboxes')) return 'col-12';
  if (widget && narrow.has(widget)) return 'col-12 col-md-6 col-xl-3';
  return 'col-12 col-md-6 col-xl-4';
}

/** Applies "ui:titleWhen": the property element is drawn again with the other title in its uiSchema. */
function relabelled(content: ReactElement, fieldUi: Record<string, unknown> | undefined, data: Record<string, unknown>): ReactElement {
  const title = conditionalTitle(fieldUi, data);
  if (!title || !isValidElement<{ uiSchema?: Record<string, unknown> }>(content)) return content;
  return cloneElement(content, { uiSchema: { ...content.props.uiSchema, 'ui:title': title } });
}

/** The declared schema of the object at `path` (rjsf hands the template the one its conditions were resolved into). */
function declaredSchema(root: JsonSchema, path: ReadonlyArray<string | number>): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const step of path) node = typeof step === 'number' ? node?.items : node?.properties?.[step];
  return node && typeof node === 'object' ? node : undefined;
}

function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, formData, title, fieldPathId, schema, registry: rjsf } = props;
  const ui = (uiSchema ?? {}) as Record<string, unknown>;
  const data = (formData ?? {}) as Record<string, unknown>;
  const byName = new Map(properties.map((p) => [p.name, p]));
  // A nested object (an array row) hides what its own if/then/else hides, whatever form.ui says.
  const declared = fieldPathId.path.length ? declaredSchema(rjsf.rootSchema as JsonSchema, fieldPathId.path) : undefined;
  const hiddenHere = declared ? hiddenProperties(declared, data) : new Set<string>();
  const visible = (name: string) => !byName.get(name)?.hidden && !hiddenHere.has(name) && !isHiddenBy(ui[name] as Record<string, unknown>, data);
  const renderFields = (names: string[]) => (
    <div className="row">
      {names.filter(visible).map((name) => (
        <div key={name} className={columnFor(ui[name] as Record<string, unknown>, (schema.properties?.[name] as { type?: unknown } | undefined)?.type)}>
          {relabelled(byName.get(name)!.content, ui[name] as Record<string, unknown> | undefined, data)}
        </div>
      ))}
    </div>
  );
  const isRoot = fieldPathId.path.length === 0;
  if (!isRoot) {
    return (
      <fieldset className="border rounded p-3 mb-3">
        {title && <legend className="fs-6 fw-semibold">{title}</legend>}
        {renderFields(properties.map((p) => p.name))}
      </fieldset>
    );
  }
  const skip = new Set((ui['ui:skip'] as string[] | undefined) ?? []);
  const sections = buildSections(
    ui['ui:layout'] as LayoutSection[] | undefined,
    properties.map((p) => p.name),
    skip,
  );
  // Another form on the page (the studio's preview beside its editor) has its own prefix: headings' ids stay unique.
  const sectionId = (i: number) => (fieldPathId.$id === 'root' ? `section-${i}` : `${fieldPathId.$id}-section-${i}`);
  return (
    <>
      {sections.map((section, i) =>
        section.fields.some(visible) ? (
          <section key={section.title || i} className="card mb-3" aria-labelledby={section.title ? sectionId(i) : undefined}>
            <div className="card-body">
              {section.title && (
                <h2 id={sectionId(i)} className="h6 card-title text-uppercase text-body-secondary mb-3">
                  {section.title}
                </h2>
              )}
              {renderFields(section.fields)}
            </div>
          </section>
        ) : null,
      )}
    </>
  );
}

/** What SchemaForm puts in rjsf's formContext so an array's rows can be dropped at another place. */
export interface ReorderContext {
  riordina?: (path: ReadonlyArray<string | number>, from: number, to: number) => void;
}

const DRAG_TYPE = 'application/x-riga-modulo';
const ThemeItem = Theme.templates!.ArrayFieldItemTemplate as React.ComponentType<ArrayFieldItemTemplateProps>;

/**
 * A row of an orderable array: dragged by its handle and dropped on another row of the same array. The handle is the
 * only draggable part (a draggable row would turn selecting text in its inputs into a drag); from the keyboard the
 * row's 'Sposta su' and 'Sposta giù' buttons do the same, so the handle is hidden from assistive technology.
 */
function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { buttonsProps, index, registry: formRegistry } = props;
  const riordina = (formRegistry.formContext as ReorderContext | undefined)?.riordina;
  const [over, setOver] = useState(false);
  if (!riordina || props.readonly || props.disabled || !(buttonsProps.hasMoveUp || buttonsProps.hasMoveDown)) return <ThemeItem {...props} />;
  const arrayPath = buttonsProps.fieldPathId.path.slice(0, -1);
  const arrayKey = JSON.stringify(arrayPath);
  const fromOf = (event: React.DragEvent) => {
    const [key, from] = (event.dataTransfer.getData(DRAG_TYPE) || '|').split('|');
    return key === arrayKey ? Number(from) : undefined;
  };
  return (
    <div className={`d-flex align-items-start gap-2 riga-trascinabile${over ? ' riga-trascinabile-sopra' : ''}`}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        const from = fromOf(event);
        if (from === undefined || from === index) return;
        event.preventDefault();
        riordina(arrayPath, from, index);
      }}>
      <span className="riga-maniglia" draggable aria-hidden="true" title="Trascina per spostare"
        onDragStart={(event) => {
          event.dataTransfer.setData(DRAG_TYPE, `${arrayKey}|${index}`);
          event.dataTransfer.effectAllowed = 'move';
        }}>⠿</span>
      <div className="flex-grow-1"><ThemeItem {...props} /></div>
    </div>
  );
}

export const formTemplates: Partial<TemplatesType> = {
  FieldTemplate,
  ArrayFieldItemTemplate,
  FieldErrorTemplate,
  ObjectFieldTemplate,
  // Errors show under their fields; the action bar's chip counts them.
  ErrorListTemplate: () => null,
};
