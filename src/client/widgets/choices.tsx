// Choice widgets: a switch for booleans (it renders its own label) and a select for enums (oneOf const/title).
import { RequiredMark } from '../lib/RequiredMark.tsx';
import Form from 'react-bootstrap/Form';
import type { WidgetProps } from '@rjsf/utils';
import { describedBy } from './aria.ts';

export function SwitchWidget({ id, htmlName, value, label, disabled, readonly, rawErrors, onChange, onBlur, onFocus, autofocus }: WidgetProps) {
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <Form.Check
      type="switch"
      id={id}
      name={htmlName || id}
      label={label}
      checked={value === true || value === 1 || value === '1'}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      isInvalid={invalid}
      aria-describedby={describedBy(id, { error: invalid })}
      onChange={(event) => onChange(event.target.checked)}
      onBlur={(event) => onBlur(id, event.target.checked)}
      onFocus={(event) => onFocus(id, event.target.checked)}
    />
  );
}

export function SelectWidget({
  id,
  htmlName,
  value,
  options,
  disabled,
  readonly,
  required,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
  autofocus,
  placeholder,
}: WidgetProps) {
  const enumOptions = options.enumOptions ?? [];
  const invalid = (rawErrors?.length ?? 0) > 0;
  // Options are addressed by position so numbers and strings survive the round trip through the DOM.
  const index = enumOptions.findIndex((option) => option.value === value);
  const decode = (raw: string) => (raw === '' ? undefined : enumOptions[Number(raw)]?.value);
  return (
    <Form.Select
      id={id}
      name={htmlName || id}
      value={index >= 0 ? String(index) : ''}
      disabled={disabled || readonly}
      required={required}
      autoFocus={autofocus}
      isInvalid={invalid}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy(id, { error: invalid })}
      onChange={(event) => onChange(decode(event.target.value))}
      onBlur={(event) => onBlur(id, decode(event.target.value))}
      onFocus={(event) => onFocus(id, decode(event.target.value))}
    >
      <option value="">{placeholder || 'Seleziona…'}</option>
      {enumOptions.map((option, i) => (
        <option key={String(option.value)} value={String(i)}>
          {option.label}
        </option>
      ))}
    </Form.Select>
  );
}

/** Several choices of an array of enums (e.g. roles): a fieldset whose legend is the field label. */
export function CheckboxesWidget({ id, value, label, options, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const enumOptions = options.enumOptions ?? [];
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const invalid = (rawErrors?.length ?? 0) > 0;
  const toggle = (optionValue: unknown, checked: boolean) => {
    const next = checked ? [...selected, optionValue] : selected.filter((v) => v !== optionValue);
    // Keep the declared order so the saved array is stable.
    onChange(enumOptions.map((o) => o.value).filter((v) => next.includes(v)));
  };
  return (
    <fieldset id={id} aria-describedby={describedBy(id, { error: invalid })} aria-invalid={invalid || undefined}>
      <legend className="form-label fs-6 mb-1">
        {label}
        <RequiredMark required={required} />
      </legend>
      {enumOptions.map((option, i) => (
        <Form.Check
          key={String(option.value)}
          type="checkbox"
          id={`${id}-${i}`}
          label={option.label}
          checked={selected.includes(option.value)}
          disabled={disabled || readonly}
          isInvalid={invalid}
          onChange={(event) => toggle(option.value, event.target.checked)}
          onBlur={() => onBlur(id, selected)}
          onFocus={() => onFocus(id, selected)}
        />
      ))}
    </fieldset>
  );
}

/** One choice among a few (yes/no, consents): radios in a fieldset whose legend is the field label, large enough to tap. */
export function RadioWidget({ id, value, label, options, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const enumOptions = options.enumOptions ?? [];
  const invalid = (rawErrors?.length ?? 0) > 0;
  const inline = options.inline === true;
  return (
    <fieldset
      id={id}
      role="radiogroup"
      aria-labelledby={`${id}__legend`}
      aria-describedby={describedBy(id, { error: invalid })}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
    >
      <legend id={`${id}__legend`} className="form-label fs-6 mb-1">
        {label}
        {required && (
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      {enumOptions.map((option, i) => (
        <Form.Check
          key={String(option.value)}
          type="radio"
          inline={inline}
          className="py-1"
          id={`${id}-${i}`}
          name={id}
          label={option.label}
          checked={value === option.value}
          disabled={disabled || readonly}
          isInvalid={invalid}
          onChange={() => onChange(option.value)}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
        />
      ))}
    </fieldset>
  );
}

/** A value the form carries but does not show (kept in step with other fields by the page, e.g. persona from the gender). */
export function HiddenWidget({ id, value }: WidgetProps) {
  return <input type="hidden" id={id} value={value === undefined || value === null ? '' : String(value)} />;
}
