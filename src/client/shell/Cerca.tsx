// The top bar's one search (GET /api/cerca): results grouped by kind, keyboard only. '/' or Ctrl+K focuses it, the
// arrows move through the results, Enter opens the record's screen, Esc closes. An ARIA 1.2 combobox with a listbox.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDebounce } from 'use-debounce';
import { CERCA_MIN, useCerca } from '../api/hooks.ts';
import type { CercaHit } from '../api/dataProvider.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { Icon } from '../lib/Icon.tsx';

/** Where focus may not be taken by '/': the user is typing there. */
function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

export default function Cerca() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const { definitions } = useDefinitions();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [debounced] = useDebounce(text, 200);
  const { data, isLoading, error } = useCerca(debounced);
  const searching = text.trim().length >= CERCA_MIN;

  // Grouped by kind in the order the server answered, each group titled with its resource's title.
  const groups = useMemo(() => {
    const byKind = new Map<string, CercaHit[]>();
    for (const hit of searching ? data ?? [] : []) byKind.set(hit.tipo, [...(byKind.get(hit.tipo) ?? []), hit]);
    return [...byKind].map(([tipo, hits]) => ({ tipo, title: definitions?.resources.find((r) => r.name === tipo)?.resource.title ?? tipo, hits }));
  }, [data, definitions, searching]);
  const hits = groups.flatMap((g) => g.hits);
  const current = Math.min(active, Math.max(hits.length - 1, 0));
  const optionId = (hit: CercaHit) => `${id}-${hit.tipo}-${hit.id}`;

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const ctrlK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (ctrlK || (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target))) {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const go = (hit: CercaHit | undefined) => {
    if (!hit) return;
    setOpen(false);
    setText('');
    input.current?.blur();
    navigate(hit.route);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (!hits.length) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (open) go(hits[current]);
    } else if (event.key === 'Escape') {
      if (open && searching) {
        event.preventDefault();
        setOpen(false);
      } else if (text) {
        event.preventDefault();
        setText('');
      }
    }
  };

  const expanded = open && searching;
  const pending = searching && (isLoading || debounced.trim() !== text.trim());
  return (
    <div className="top-search position-relative flex-grow-1 mx-2" role="search">
      <label htmlFor={`${id}-input`} className="visually-hidden">Cerca clienti, quotazioni, polizze, titoli (/)</label>
      <div className="input-group input-group-sm">
        <span className="input-group-text" aria-hidden="true"><Icon name="search" size={14} /></span>
        <input
          ref={input}
          id={`${id}-input`}
          type="search"
          className="form-control"
          placeholder="Cerca…"
          autoComplete="off"
          spellCheck={false}
          role="combobox"
          aria-expanded={expanded}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={expanded && hits[current] ? optionId(hits[current]) : undefined}
          aria-keyshortcuts="/ Control+K"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
      </div>
      <div id={`${id}-list`} role="listbox" aria-label="Risultati della ricerca" hidden={!expanded}
        className="top-search-results dropdown-menu show shadow w-100 py-1">
        {error ? (
          <div className="px-3 py-2 text-danger small">Ricerca non riuscita: {(error as Error).message}</div>
        ) : pending && !hits.length ? (
          <div className="px-3 py-2 text-body-secondary small" aria-live="polite">Ricerca in corso…</div>
        ) : !hits.length ? (
          <div className="px-3 py-2 text-body-secondary small" aria-live="polite">Nessun risultato</div>
        ) : (
          groups.map((group) => (
            <div key={group.tipo} role="group" aria-labelledby={`${id}-${group.tipo}`}>
              <div id={`${id}-${group.tipo}`} className="dropdown-header text-uppercase small fw-semibold">{group.title}</div>
              {group.hits.map((hit) => {
                const selected = hits[current] === hit;
                return (
                  <div
                    key={optionId(hit)}
                    id={optionId(hit)}
                    role="option"
                    aria-selected={selected}
                    className={`dropdown-item text-truncate${selected ? ' active' : ''}`}
                    // mousedown, not click: the input's blur would close the list before a click lands.
                    onMouseDown={(e) => {
                      e.preventDefault();
                      go(hit);
                    }}
                    onMouseEnter={() => setActive(hits.indexOf(hit))}
                  >
                    {hit.label}
                  </div>
                );
              })}
            </div>
          ))
        )}
      </div>
    </div>
  );
}
