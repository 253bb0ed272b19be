// A small input for a table cell with its message underneath, tied to it for screen readers, and the text
// state of a decimal cell (comma as the decimal point).
import { useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { parseDecimal } from '../lib/format.ts';

const decimalText = (value: unknown) => (value === null || value === undefined || value === '' ? '' : String(value).replace('.', ','));

/**
 * The text of a decimal cell: "12,5" for 12.5, following a value set from outside (record reloaded)
 * unless it is what the text already says (so "12," being typed is not rewritten).
 */
export function useDecimalText(value: unknown): [string, (text: string) => void] {
  const [text, setText] = useState(() => decimalText(value));
  useEffect(() => {
    setText((current) => (parseDecimal(current) === value ? current : decimalText(value)));
  }, [value]);
  return [text, setText];
}

export interface CellControlProps {
  id: string;
  label: string;
  text: string;
  error?: string | null;
  disabled?: boolean;
  inputMode: 'decimal' | 'numeric';
  placeholder?: string;
  maxLength?: number;
  /** Characters the cell accepts; anything else typed is dropped. */
  allowed: RegExp;
  onText: (text: string) => void;
}

export function CellControl({ id, label, text, error, disabled, inputMode, placeholder, maxLength, allowed, onText }: CellControlProps) {
  const notAllowed = new RegExp(`[^${allowed.source}]`, 'g');
  return (
    <>
      <Form.Control
        id={id}
        size="sm"
        inputMode={inputMode}
        autoComplete="off"
        placeholder={placeholder}
        maxLength={maxLength}
        aria-label={label}
        value={text}
        disabled={disabled}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}__error` : undefined}
        onChange={(event) => onText(event.target.value.replace(notAllowed, ''))}
      />
      {error && (
        <div id={`${id}__error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
    </>
  );
}

/**
 * A decimal cell (comma as the decimal point): its text follows the value (useDecimalText); `errorOf` judges the text on
 * screen and `onText` hears each edit, which decides what value, if any, it reports.
 */
export function DecimalCell({ id, label, value, disabled, errorOf, onText }: {
  id: string; label: string; value: unknown; disabled?: boolean; errorOf: (text: string) => string | null | undefined; onText: (text: string) => void;
}) {
  const [text, setText] = useDecimalText(value);
  return (
    <CellControl
      id={id}
      label={label}
      text={text}
      error={errorOf(text)}
      disabled={disabled}
      inputMode="decimal"
      allowed={/\d,./}
      onText={(next) => {
        setText(next);
        onText(next);
      }}
    />
  );
}
