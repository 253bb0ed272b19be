// A refusal told again by a caller (which title stopped a payment) keeps what the client decides on: status and code.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/errors.ts';

describe('HttpError.restated', () => {
  it('keeps status, code and extra, changing only the message', () => {
    const stale = new HttpError(409, 'Il record è stato modificato da un altro utente.', undefined, { current: { id: 7 } }, 'STALE_VERSION');
    const told = stale.restated({ message: `Titolo 7: ${stale.message} Nessun pagamento registrato.` });
    expect(told).toBeInstanceOf(HttpError);
    expect(told.statusCode).toBe(409);
    expect(told.body()).toEqual({ message: 'Titolo 7: Il record è stato modificato da un altro utente. Nessun pagamento registrato.', code: 'STALE_VERSION', current: { id: 7 } });
  });

  it('replaces the field errors when given, else keeps them', () => {
    const invalid = new HttpError(422, 'I dati inseriti non sono validi.', { nome: ['Obbligatorio'] });
    expect(invalid.restated({ errors: { 'mandato.nome': ['Obbligatorio'] } }).body()).toEqual({ message: 'I dati inseriti non sono validi.', code: 'VALIDATION', errors: { 'mandato.nome': ['Obbligatorio'] } });
    expect(invalid.restated({ message: 'Altro.' }).body()).toEqual({ message: 'Altro.', code: 'VALIDATION', errors: { nome: ['Obbligatorio'] } });
  });
});
