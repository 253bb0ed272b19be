// Choice widgets: a switch for booleans (it renders its own label) and a select for enums (oneOf const/title).
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

export function SelectWidget({ id, htmlName, value, options, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus, autofocus, placeholder }: WidgetProps) {
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
