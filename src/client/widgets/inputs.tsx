// Text-like widgets (text, uppercase, currency, date, phone, textarea, password): one input, a codec per widget.
import { useContext, useEffect, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { WidgetProps } from '@rjsf/utils';
import { formatDate, formatDateTime, parseDecimal, parseItalianDate } from '../lib/format.ts';
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

export function CodecInput({ codec, ...props }: WidgetProps & { codec: Codec }) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, placeholder, rawErrors, options, onChange, onBlur, onFocus, schema, uiSchema } = props;
  const [text, setText] = useState(() => codec.format(value));
  const lastSent = useRef<unknown>(value);
  // Values sent and not yet back as `value`: the form may hand one back after later keystrokes (a transition).
  const unechoed = useRef<unknown[]>([]);
  const typed = useContext(TypingContext);

  // Follow values set from outside (reload, action bar toggle) without fighting what the user is typing.
  useEffect(() => {
    const echo = unechoed.current.findIndex((sent) => sameValue(sent, value));
    if (echo >= 0) unechoed.current.splice(0, echo + 1);
    else if (!sameValue(value, lastSent.current)) {
      lastSent.current = value;
      unechoed.current = [];
      setText(codec.format(value));
    }
  }, [value, codec]);

  const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = codec.clean ? codec.clean(event.target.value) : event.target.value;
    setText(next);
    const parsed = codec.parse(next);
    lastSent.current = parsed;
    unechoed.current.push(parsed);
    // The text above shows at once; the form's data follows in a transition.
    typed(() => onChange(parsed));
  };
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
export const DateWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.date} />;
export const DateTimeWidget = (props: WidgetProps) => <CodecInput {...props} readonly codec={codecs.datetime} />;
export const PhoneWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.phone} />;
export const TextareaWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.textarea} />;
export const PasswordWidget = (props: WidgetProps) => <CodecInput {...props} codec={codecs.password} />;
