// Client display formats and list URL state: dates, money, decimals, templates, ISTAT codes, query round trip.
import { describe, expect, it } from 'vitest';
import { fillTemplate, formatDate, formatDateTime, formatMoney, padIstat, parseDecimal, parseItalianDate } from '../../src/client/lib/format.ts';
import { formatSort, parseSort, readListState, writeListState } from '../../src/client/renderer/listParams.ts';
import type { ListConfig } from '../../src/client/types.ts';

describe('dates', () => {
  it('shows ISO dates as DD/MM/YYYY and parses them back', () => {
    expect(formatDate('1980-01-31')).toBe('31/01/1980');
    expect(formatDate('2026-11-22T10:00:00.000Z')).toBe('22/11/2026');
    expect(formatDate(null)).toBe('');
    expect(parseItalianDate('31/01/1980')).toBe('1980-01-31');
    expect(parseItalianDate('1/2/2001')).toBe('2001-02-01');
  });
  it('refuses dates that do not exist or are incomplete', () => {
    expect(parseItalianDate('31/02/2001')).toBeNull();
    expect(parseItalianDate('12/2001')).toBeNull();
    expect(parseItalianDate('2001-02-01')).toBeNull();
  });
  it('shows timestamps with hours and minutes', () => {
    expect(formatDateTime('2026-01-05T08:09:00')).toBe('05/01/2026 08:09');
  });
});

describe('money and decimals', () => {
  it('formats euro amounts the Italian way with 2 decimals', () => {
    expect(formatMoney(1234.5).replace(/\s/g, ' ')).toBe('1.234,50 €');
    expect(formatMoney('0')).toMatch(/^0,00/);
    expect(formatMoney(undefined)).toBe('');
  });
  it('takes a comma as the decimal dot', () => {
    expect(parseDecimal('12,50')).toBe(12.5);
    expect(parseDecimal('12.5')).toBe(12.5);
    expect(parseDecimal('12,')).toBe(12);
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal('1,2,3')).toBeNull();
  });
});

describe('templates and codes', () => {
  it('fills record titles and collapses missing parts', () => {
    expect(fillTemplate('{nome} {cognome}', { nome: 'MARIO', cognome: 'ROSSI' })).toBe('MARIO ROSSI');
    expect(fillTemplate('{nome} {cognome}', { nome: 'ACME SRL', cognome: null })).toBe('ACME SRL');
    expect(fillTemplate('{a.b}', { a: { b: 'x' } })).toBe('x');
  });
  it('pads ISTAT municipality codes to 6 digits', () => {
    expect(padIstat(58091)).toBe('058091');
    expect(padIstat('1272')).toBe('001272');
  });
});

describe('list state in the URL', () => {
  const list: ListConfig = {
    columns: [
      { field: 'id', headerName: 'Id', sortable: true },
      { field: 'cognome', headerName: 'Cognome', filter: 'text' },
      { field: 'attivo', headerName: 'Attivo', filter: 'boolean' },
    ],
    defaultSort: '-id',
    perPage: 15,
  };

  it('reads defaults from the list definition', () => {
    expect(readListState(new URLSearchParams(''), list)).toEqual({ page: 1, perPage: 15, sort: '-id', search: '', filters: {} });
  });

  it('round-trips page, size, sort, search and filters, leaving defaults out', () => {
    const query = new URLSearchParams('page=3&per_page=50&sort=cognome&search=rossi&filter[cognome]=ros&filter[attivo]=true');
    const state = readListState(query, list);
    expect(state).toEqual({ page: 3, perPage: 50, sort: 'cognome', search: 'rossi', filters: { cognome: 'ros', attivo: 'true' } });
    expect(readListState(writeListState(state, list), list)).toEqual(state);
    expect(writeListState({ ...state, page: 1, perPage: 15, sort: '-id', search: '', filters: {} }, list).toString()).toBe('');
  });

  it('ignores filters on columns that declare none, and bad numbers', () => {
    const state = readListState(new URLSearchParams('filter[password]=x&page=-2&per_page=abc'), list);
    expect(state.filters).toEqual({});
    expect(state.page).toBe(1);
    expect(state.perPage).toBe(15);
  });

  it('parses and formats multi-column sorts', () => {
    expect(parseSort('-id,cognome')).toEqual([
      { field: 'id', dir: 'desc' },
      { field: 'cognome', dir: 'asc' },
    ]);
    expect(formatSort(parseSort('-id,cognome'))).toBe('-id,cognome');
  });
});
