// Text-like widgets (text, uppercase, currency, date, phone, textarea, password): one input, a codec per widget.
import { useContext, useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { WidgetProps } from '@rjsf/utils';
import { formatDate, formatDateTime, parseDecimal, parseItalianDate } from '../lib/format.ts';
import { formatMessages } from '../../shared/validation-messages.ts';
import { describedBy } from './aria.ts';
import { normalizeTelefono } from '../../shared/validators/telefono.ts';
import { TypingContext } from './typing.ts';

/** How a widget shows a value as text and turns typed text back into a value. */
export interface Codec {
  format: (value: unknown) => string;
  /** Text the validator cannot accept is passed through unchanged, so its message explains the problem. */
  parse: (text: string) => unknown;
  clean?: (text: string) => string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'email';
  type?: string;
  placeholder?: string;
  autoComplete?: string;
  className?: string;
  prefix?: string;
  multiline?: boolean;
  maxLength?: number;
}

const asText = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const emptyToUndefined = (text: string) => (text === '' ? undefined : text);

export const textCodec: Codec = { format: asText, parse: emptyToUndefined };

export const numberCodec: Codec = {
  format: (value) => asText(value).replace('.', ','),
  parse: (text) => (text.trim() === '' ? undefined : (parseDecimal(text) ?? text)),
  inputMode: 'decimal',
};

export const codecs = {
  text: textCodec,
  number: numberCodec,
  // CSS shows capitals while typing (the caret never jumps); the value itself is upper-cased.
  uppercase: { format: asText, parse: (text: string) => emptyToUndefined(text.toUpperCase()), className: 'text-uppercase' },
  currency: { ...numberCodec, clean: (text: string) => text.replace(/[^\d,.]/g, ''), prefix: '€' },
  date: {
    format: formatDate,
    parse: (text: string) => (text.trim() === '' ? undefined : (parseItalianDate(text) ?? text)),
    clean: (text: string) => text.replace(/[^\d/]/g, ''),
    inputMode: 'numeric',
    placeholder: 'GG/MM/AAAA',
    maxLength: 10,
  },
  phone: {
    format: asText,
    // Spaces are typed freely and kept on screen; the value is the number without them, as the server stores it.
    parse: (text: string) => emptyToUndefined(normalizeTelefono(text)),
    clean: (text: string) => text.replace(/[^\d+ ]/g, ''),
    inputMode: 'tel',
    type: 'tel',
    placeholder: 'es. +39 3331234567',
    autoComplete: 'tel',
  },
  // Vehicle plate: letters and digits only, upper case, as typed ('ab 123 cd' becomes 'AB123CD').
  targa: {
    format: asText,
    parse: (text: string) => emptyToUndefined(text.toUpperCase().replace(/[^A-Z0-9]/g, '')),
    clean: (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, ''),
    className: 'text-uppercase',
    autoComplete: 'off',
    // Room for spaces and dashes as typed; the cleaned plate is what the schema's limit checks.
    maxLength: 12,
  },
  // A moment the server records (sent at, next attempt): read as DD/MM/YYYY HH:mm, never typed.
  datetime: { format: formatDateTime, parse: emptyToUndefined },
  textarea: { format: asText, parse: emptyToUndefined, multiline: true },
  password: { format: asText, parse: emptyToUndefined, type: 'password', autoComplete: 'new-password' },
} satisfies Record<string, Codec>;

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || ((a === undefined || a === null || a === '') && (b === undefined || b === null || b === ''));
}

/** The typed text of a value: follows values set from outside (reload, action bar toggle) without fighting the typing. */
function useCodecText(codec: Codec, value: unknown, onChange: (parsed: unknown) => void) {
  const [text, setText] = useState(() => codec.format(value));
  const lastSent = useRef<unknown>(value);
  // Values sent and not yet back as `value`: the form may hand one back after later keystrokes (a transition).
  const unechoed = useRef<unknown[]>([]);
  const typed = useContext(TypingContext);

  useEffect(() => {
    const echo = unechoed.current.findIndex((sent) => sameValue(sent, value));
    if (echo >= 0) unechoed.current.splice(0, echo + 1);
    else if (!sameValue(value, lastSent.current)) {
      lastSent.current = value;
      unechoed.current = [];
      setText(codec.format(value));
    }
  }, [value, codec]);

  const change = (typedText: string) => {
    const next = codec.clean ? codec.clean(typedText) : typedText;
    setText(next);
    const parsed = codec.parse(next);
    lastSent.current = parsed;
    unechoed.current.push(parsed);
    // The text above shows at once; the form's data follows in a transition.
    typed(() => onChange(parsed));
  };
  return { text, change };
}

export function CodecInput({ codec, ...props }: WidgetProps & { codec: Codec }) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, placeholder, rawErrors, options, onChange, onBlur, onFocus, schema, uiSchema } = props;
  const { text, change } = useCodecText(codec, value, onChange);
  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => change(event.target.value);
  const invalid = (rawErrors?.length ?? 0) > 0;
  const maxLength = codec.maxLength ?? (typeof schema.maxLength === 'number' ? schema.maxLength : undefined);
  const control = (
    <Form.Control
      id={id}
      name={htmlName || id}
      as={codec.multiline ? 'textarea' : 'input'}
      {...(codec.multiline ? ({ rows: Number(options.rows ?? 3) } as object) : {})}
      type={codec.multiline ? undefined : (codec.type ?? 'text')}
      inputMode={codec.inputMode}
      autoComplete={codec.autoComplete ?? 'off'}
      className={codec.className}
      value={text}
      placeholder={placeholder || codec.placeholder}
      maxLength={maxLength}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      isInvalid={invalid}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy(id, { error: invalid, description: Boolean(schema.description), help: Boolean(uiSchema?.['ui:help']) })}
      onChange={handleChange}
      onBlur={() => onBlur(id, codec.parse(text))}
      onFocus={() => onFocus(id, codec.parse(text))}
    />
  );
  return codec.prefix ? (
    <InputGroup hasValidation>
      <InputGroup.Text aria-hidden="true">{codec.prefix}</InputGroup.Text>
      {control}
    </InputGroup>
  ) : (
    control
  );
}

const isNumeric = (props: WidgetProps) => props.schema.type === 'number' || props.schema.type === 'integer';

export const TextWidget = (props: WidgetProps) => <CodecInput {...props} codec={isNumeric(props) ? codecs.number : codecs.text} />;
export const UppercaseWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.uppercase} />;
export const TargaWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.targa} />;
export const CurrencyWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.currency} />;
export const DateTimeWidget = (props: WidgetProps) => <CodecInput {...props} readonly codec={codecs.datetime} />;
export const PhoneWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.phone} />;
export const TextareaWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.textarea} />;
export const PasswordWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.password} />;

/** Why a typed date cannot be taken (Italian, for the person typing), or undefined when it can or nothing is typed. */
export function dateProblem(text: string, min?: string, max?: string): string | undefined {
  if (text.trim() === '') return undefined;
  const iso = parseItalianDate(text);
  if (!iso) return formatMessages.date;
  if (min && iso < min) return `La data non può essere precedente al ${formatDate(min)}.`;
  if (max && iso > max) return `La data non può essere successiva al ${formatDate(max)}.`;
  return undefined;
}

export interface DateInputProps {
  /** YYYY-MM-DD, or empty. */
  value: unknown;
  /** YYYY-MM-DD when the text is a date, undefined when empty, else the text as typed (the server's check names the problem). */
  onChange: (value: string | undefined) => void;
  id?: string;
  name?: string;
  /** Earliest and latest day accepted (YYYY-MM-DD). */
  min?: string;
  max?: string;
  /** The error to show under the input (e.g. the server's); without one, the input's own check speaks. */
  error?: string;
  /** Marked invalid by its owner, which shows the message itself (a form field's template). */
  isInvalid?: boolean;
  /** false: the owner checks the typed text (a form's validator); by default the input names a wrong or out-of-range date. */
  ownCheck?: boolean;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  autoFocus?: boolean;
  size?: 'sm' | 'lg';
  placeholder?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  onBlur?: (value: unknown) => void;
  onFocus?: (value: unknown) => void;
}

/** The one date input (spec 000 §9): typed and read as GG/MM/AAAA, YYYY-MM-DD in and out; forms and dialogs alike. */
export function DateInput(props: DateInputProps) {
  const { value, onChange, id, name, min, max, error, isInvalid, ownCheck = true, size, placeholder, onBlur, onFocus } = props;
  const codec = codecs.date;
  const { text, change } = useCodecText(codec, value, (parsed) => onChange(parsed as string | undefined));
  const [left, setLeft] = useState(false);
  const feedbackId = `${useId()}-errore`;
  // Its own check speaks once the date is complete or the person has moved on, not at the first digit.
  const problem = error ?? (ownCheck && (left || text.length >= 10) ? dateProblem(text, min, max) : undefined);
  const invalid = Boolean(isInvalid || problem);
  const describedByIds = [props['aria-describedby'], problem && feedbackId].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <Form.Control
        id={id}
        name={name}
        size={size}
        type="text"
        inputMode={codec.inputMode}
        autoComplete="off"
        value={text}
        placeholder={placeholder || codec.placeholder}
        maxLength={codec.maxLength}
        required={props.required}
        disabled={props.disabled}
        readOnly={props.readOnly}
        autoFocus={props.autoFocus}
        isInvalid={invalid}
        aria-invalid={invalid || undefined}
        aria-required={props.required || undefined}
        aria-label={props['aria-label']}
        aria-describedby={describedByIds}
        onChange={(event: ChangeEvent<HTMLInputElement>) => change(event.target.value)}
        onBlur={() => {
          setLeft(true);
          onBlur?.(codec.parse(text));
        }}
        onFocus={() => onFocus?.(codec.parse(text))}
      />
      {problem && (
        <Form.Control.Feedback type="invalid" id={feedbackId}>
          {problem}
        </Form.Control.Feedback>
      )}
    </>
  );
}

/** The form's date field: the same DateInput; the field template shows the validator's messages. */
export function DateWidget(props: WidgetProps) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, placeholder, rawErrors, onChange, onBlur, onFocus, schema, uiSchema } = props;
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <DateInput
      id={id}
      name={htmlName || id}
      value={value}
      onChange={onChange}
      isInvalid={invalid}
      // The form's validator checks the text and its field template shows the message: no second one here.
      ownCheck={false}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      aria-describedby={describedBy(id, { error: invalid, description: Boolean(schema.description), help: Boolean(uiSchema?.['ui:help']) })}
      onBlur={(v) => onBlur(id, v)}
      onFocus={(v) => onFocus(id, v)}
    />
  );
}
