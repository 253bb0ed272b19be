// Accessible combobox (WAI-ARIA 1.2 pattern) behind the 'comune' and 'reference' widgets; degrades to typed input.
import { useDebounce } from 'use-debounce';
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { isApiError } from '../api/dataProvider.ts';

/** Thrown by a search/describe function when its endpoint does not exist (yet): switch to typed input. */
export class LookupUnavailable extends Error {}

export interface Option {
  value: string | number;
  label: string;
}

export interface AutocompleteProps {
  id: string;
  name: string;
  value: unknown;
  required?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
  search: (text: string, signal: AbortSignal) => Promise<Option[]>;
  describe: (value: string | number, signal: AbortSignal) => Promise<string | undefined>;
  onChange: (value: unknown) => void;
  onBlur: (value: unknown) => void;
  onFocus: (value: unknown) => void;
  /** When the look-up is missing (404, no permission), the typed text becomes the value through `parse`. */
  fallback: { parse: (text: string) => unknown; hint: string; inputMode?: 'numeric' | 'text' };
  /** Start in fallback mode (e.g. the referenced resource is not available to this user). */
  unavailable?: boolean;
  minChars?: number;
  debounceMs?: number;
}

export function Autocomplete(props: AutocompleteProps) {
  const { id, name, value, required, disabled, invalid, describedBy, autoFocus, search, describe, onChange, onBlur, onFocus, fallback } = props;
  const minChars = props.minChars ?? 3; // spec: more than 2 characters
  const debounceMs = props.debounceMs ?? 300;
  const [text, setText] = useState(value === undefined || value === null ? '' : String(value));
  const [label, setLabel] = useState<string>('');
  const [options, setOptions] = useState<Option[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const [unavailable, setUnavailable] = useState(Boolean(props.unavailable));
  const listId = `${useId()}-listbox`;
  const hintId = `${id}__hint`;
  const typing = useRef(false);
  // Labels already known for values (chosen here or described once), so a pick never flashes back to a code.
  const known = useRef(new Map<unknown, string>());

  // Show the label of the current value (record loaded, reloaded or cleared).
  useEffect(() => {
    if (typing.current) return;
    if (value === undefined || value === null || value === '') {
      setText('');
      setLabel('');
      return;
    }
    if (unavailable) {
      setText(String(value));
      return;
    }
    const cached = known.current.get(value);
    if (cached) {
      setText(cached);
      setLabel(cached);
      return;
    }
    const controller = new AbortController();
    setText(String(value));
    describe(value as string | number, controller.signal)
      .then((found) => {
        if (found && !controller.signal.aborted) {
          known.current.set(value, found);
          setText(found);
          setLabel(found);
        }
      })
      .catch((err: unknown) => err instanceof LookupUnavailable && setUnavailable(true));
    return () => controller.abort();
  }, [value, unavailable, describe]);

  // Look-up once the typing pauses (spec 000 §9: 300 ms).
  const [term] = useDebounce(text.trim(), debounceMs);
  useEffect(() => {
    if (!typing.current || unavailable) return;
    if (term.length < minChars || term === label) {
      setOptions([]);
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    search(term, controller.signal)
      .then((found) => {
        if (controller.signal.aborted) return;
        setOptions(found);
        setOpen(true);
        setActive(found.length ? 0 : -1);
        setStatus(found.length ? `${found.length} risultati disponibili` : 'Nessun risultato');
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof LookupUnavailable || (isApiError(err, 'NOT_FOUND') || isApiError(err, 'FORBIDDEN'))) {
          setUnavailable(true);
          setStatus(fallback.hint);
        } else {
          setStatus(err instanceof Error ? err.message : 'Ricerca non riuscita');
        }
        setOpen(false);
      });
    return () => controller.abort();
  }, [term, unavailable, minChars, search, label, fallback.hint]);

  const choose = (option: Option) => {
    typing.current = false;
    known.current.set(option.value, option.label);
    setText(option.label);
    setLabel(option.label);
    setOpen(false);
    setOptions([]);
    setStatus(`Selezionato ${option.label}`);
    onChange(option.value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && options.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      // Choosing an option must not submit the form.
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const handleBlur = () => {
    setOpen(false);
    let next: unknown = value;
    if (unavailable) next = fallback.parse(text);
    else if (text.trim() === '') next = undefined;
    else if (typing.current) setText(label || (value === undefined || value === null ? '' : String(value)));
    typing.current = false;
    if (next !== value) onChange(next);
    onBlur(next);
  };

  const described = [describedBy, unavailable ? hintId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="position-relative">
      <Form.Control
        id={id}
        name={name}
        value={text}
        role={unavailable ? undefined : 'combobox'}
        aria-autocomplete={unavailable ? undefined : 'list'}
        aria-expanded={unavailable ? undefined : open}
        aria-controls={unavailable ? undefined : listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-describedby={described}
        inputMode={unavailable ? fallback.inputMode : undefined}
        autoComplete="off"
        autoFocus={autoFocus}
        placeholder={unavailable ? undefined : 'Digita almeno 3 caratteri'}
        required={required}
        disabled={disabled}
        isInvalid={invalid}
        onChange={(event) => {
          typing.current = true;
          setText(event.target.value);
          if (unavailable) onChange(fallback.parse(event.target.value));
        }}
        onKeyDown={onKeyDown}
        onBlur={handleBlur}
        onFocus={() => onFocus(value)}
      />
      {!unavailable && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggerimenti"
          className={`list-group position-absolute w-100 shadow-sm autocomplete-list${open ? '' : ' d-none'}`}
        >
          {options.map((option, i) => (
            <li
              key={`${option.value}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`list-group-item list-group-item-action${i === active ? ' active' : ''}`}
              // mousedown keeps focus in the input, so blur does not close the list before the click lands.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option);
              }}
            >
              {option.label}
            </li>
          ))}
        </ul>
      )}
      {unavailable && (
        <Form.Text id={hintId} className="text-muted">
          {fallback.hint}
        </Form.Text>
      )}
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
