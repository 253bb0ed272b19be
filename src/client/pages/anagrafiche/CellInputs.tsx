// Inputs for tables edited in place: a percentage (0-100, comma as decimal point) and an Italian date (GG/MM/AAAA).
import { useEffect, useState } from 'react';
import { CellControl, DecimalCell } from '../../widgets/CellControl.tsx';
import { formatDate, parseDecimal, parseItalianDate } from '../../lib/format.ts';
import { ajvMessages, formatMessages } from '../../messages.ts';

const PERCENT_MIN = 0;
const PERCENT_MAX = 100;

/** null when the text is a percentage the server takes (spec 000 §5: 0 to 100), else the message. */
export function percentError(text: string, optional = false): string | null {
  if (text.trim() === '') return optional ? null : ajvMessages.required({});
  const n = parseDecimal(text);
  if (n === null) return ajvMessages.type({ type: 'number' });
  if (n < PERCENT_MIN) return ajvMessages.minimum({ limit: PERCENT_MIN });
  if (n > PERCENT_MAX) return ajvMessages.maximum({ limit: PERCENT_MAX });
  return null;
}

interface CellInputProps {
  id: string;
  label: string;
  value: unknown;
  disabled?: boolean;
  /** A message from the server for this cell. */
  serverError?: string;
  /** Empty is allowed and means no value (null). */
  optional?: boolean;
  onValue: (value: unknown) => void;
}

/** Reports only values the server would accept; a wrong one stays on screen with its message. */
export function PercentInput({ id, label, value, disabled, serverError, optional, onValue }: CellInputProps) {
  return (
    <div style={{ minWidth: 90 }}>
      <DecimalCell
        id={id}
        label={label}
        value={value}
        disabled={disabled}
        errorOf={(text) => percentError(text, optional) ?? serverError}
        onText={(next) => {
          if (percentError(next, optional) === null) onValue(next.trim() === '' ? null : parseDecimal(next));
        }}
      />
    </div>
  );
}

export function DateInput({ id, label, value, disabled, serverError, onValue }: CellInputProps) {
  const [text, setText] = useState(() => formatDate(value));
  useEffect(() => {
    setText((current) => (parseItalianDate(current) === value ? current : formatDate(value)));
  }, [value]);
  const error = (text.trim() === '' ? ajvMessages.required({}) : parseItalianDate(text) ? null : formatMessages.date) ?? serverError;
  return (
    <div style={{ minWidth: 120 }}>
      <CellControl
        id={id}
        label={label}
        text={text}
        error={error}
        disabled={disabled}
        inputMode="numeric"
        placeholder="GG/MM/AAAA"
        maxLength={10}
        allowed={/\d\//}
        onText={(next) => {
          setText(next);
          const iso = parseItalianDate(next);
          if (iso) onValue(iso);
        }}
      />
    </div>
  );
}
